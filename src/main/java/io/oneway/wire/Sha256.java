package io.oneway.wire;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** A SHA-256 digest of the calling thread's, reset: MessageDigest.getInstance looks the algorithm up in the providers each time, which cost more than the digest of a small change. */
final class Sha256 {

    private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    });

    private Sha256() {
    }

    /** The thread's digest, reset (a digest left half-fed by an exception starts over). */
    static MessageDigest digest() {
        MessageDigest sha = DIGEST.get();
        sha.reset();
        return sha;
    }
}
