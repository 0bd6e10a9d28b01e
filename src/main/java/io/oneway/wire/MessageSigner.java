package io.oneway.wire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Computes and checks the integrity code of every message: HMAC-SHA256 with a key per source,
 * over the {@link FieldEncoding} of every field, so that no two different messages share an input.
 * A change's code is made over its {@link Fingerprint} (the SHA-256 of its fields, which the
 * end-to-end digest chains) with the source and incarnation, and over its row when the
 * fingerprint leaves the row out (reference mode): SHA-256 being collision resistant, that
 * covers every field as a code over the fields themselves would, and each side hashes a
 * change's fields once instead of twice (the hashing was a fifth of the replicator's CPU).
 */
public final class MessageSigner {

    /** Why a code does not verify, as a refusal tells it. */
    static final String DOES_NOT_VERIFY = "integrity code does not verify (the source's key differs between the two sides, "
            + "or the message was altered on the way)";

    private static final String ALGORITHM = "HmacSHA256";
    // keyed by source; each MessageSigner's keys are set once, before its first use, and a thread uses one signer's keys
    private final ThreadLocal<Map<String, Mac>> macs = ThreadLocal.withInitial(java.util.HashMap::new);
    private volatile Map<String, SecretKeySpec> keys = Map.of();

    /**
     * A signer whose keys are set as a property ({@link #setKeys}): a key is any text, and Camel cannot pass one holding a
     * quote to a constructor.
     */
    public MessageSigner() {
    }

    /** @param keySpec the keys as configured in oneway.keys: {@code source=key;source=key} */
    public MessageSigner(String keySpec) {
        setKeys(keySpec);
    }

    /** @param keysBySource the secret key of each source, as configured */
    public MessageSigner(Map<String, String> keysBySource) {
        this.keys = specs(keysBySource);
    }

    /** @param keySpec the keys as configured in oneway.keys: {@code source=key;source=key}; set once, before the first use */
    public void setKeys(String keySpec) {
        this.keys = specs(parse(keySpec));
    }

    private static Map<String, SecretKeySpec> specs(Map<String, String> keysBySource) {
        return Map.copyOf(keysBySource.entrySet().stream().collect(java.util.stream.Collectors.toMap(
                Map.Entry::getKey, e -> new SecretKeySpec(checkedKey(e.getKey(), e.getValue()), ALGORITHM))));
    }

    public boolean knows(String source) {
        return source != null && keys.containsKey(source);
    }

    /** The change with its code, and its fingerprint (computed unless it came with it). */
    public ChangeRecord sign(String source, String incarnation, ChangeRecord change) {
        ChangeRecord fingerprinted = change.fingerprinted();
        return fingerprinted.withMac(mac(source, changeInput(source, incarnation, fingerprinted)));
    }

    public ChangeChunk sign(String source, String incarnation, ChangeChunk chunk) {
        return chunk.withMac(mac(source, chunkInput(source, incarnation, chunk)));
    }

    public ControlMessage sign(ControlMessage message) {
        return message.withMac(mac(message.source(), controlInput(message)));
    }

    /**
     * Pass a change {@link ChangeRecord#fingerprinted() fingerprinted} to keep the fingerprint this computes.
     *
     * @return empty when the code verifies, else the reason it does not
     */
    public Optional<String> check(String source, String incarnation, ChangeRecord change) {
        return check(source, changeInput(source, incarnation, change), change.mac());
    }

    /** @return empty when the code verifies, else the reason it does not */
    public Optional<String> check(String source, String incarnation, ChangeChunk chunk) {
        return check(source, chunkInput(source, incarnation, chunk), chunk.mac());
    }

    /** @return empty when the code verifies, else the reason it does not */
    public Optional<String> check(ControlMessage message) {
        return check(message.source(), controlInput(message), message.mac());
    }

    private Optional<String> check(String source, String[] input, String mac) {
        if (!knows(source)) {
            return Optional.of("unknown source '" + source + "'");
        }
        if (mac == null) {
            return Optional.of("no integrity code");
        }
        byte[] given;
        try {
            given = Base64.getDecoder().decode(mac);
        } catch (IllegalArgumentException e) {
            return Optional.of("integrity code is not Base64");
        }
        return MessageDigest.isEqual(given, code(source, input)) ? Optional.empty()
                : Optional.of(DOES_NOT_VERIFY);
    }

    private String mac(String source, String[] input) {
        return Base64.getEncoder().encodeToString(code(source, input));
    }

    private byte[] code(String source, String[] input) {
        Mac m = macFor(source);
        FieldEncoding.feed(m::update, input);
        return m.doFinal();
    }

    /** One initialised Mac per thread and source: getInstance and init cost more than the MAC of a small change. */
    private Mac macFor(String source) {
        Map<String, Mac> mine = macs.get();
        Mac m = mine.get(source);
        if (m == null) {
            SecretKeySpec key = keys.get(source);
            if (key == null) {
                throw new IllegalStateException("no HMAC key configured for source '" + source + "'");
            }
            try {
                m = Mac.getInstance(ALGORITHM);
                m.init(key);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HMAC-SHA256 is not available", e);
            }
            mine.put(source, m);
        }
        return m;
    }

    private static String[] changeInput(String source, String incarnation, ChangeRecord c) {
        return new String[] {"change", source, incarnation, Fingerprint.text(Fingerprint.of(c)), c.reference() ? c.row() : null};
    }

    private static String[] chunkInput(String source, String incarnation, ChangeChunk k) {
        ChangeRecord c = k.change();
        return new String[] {"chunk", source, incarnation, Long.toString(c.position()), Long.toString(c.txid()),
                Boolean.toString(c.txEnd()), c.table(), c.op(), Boolean.toString(c.reference()), c.key(), c.loggedAt(),
                Integer.toString(k.index()), Integer.toString(k.count()), k.rowHash(), k.piece()};
    }

    /**
     * A message without a clock or a window note is coded as before they were sent, so senders of either kind are read; the
     * note is tagged, so that it cannot pass for a clock.
     */
    private static String[] controlInput(ControlMessage m) {
        String[] fields = {m.kind().wireName(), m.source(), m.incarnation(), Long.toString(m.from()), Long.toString(m.to()),
            Long.toString(m.id()), Integer.toString(m.piece()), m.digest()};
        int extra = (m.clock() == 0 ? 0 : 1) + (m.windowFull() < 0 ? 0 : 1);
        if (extra == 0) {
            return fields;
        }
        String[] more = Arrays.copyOf(fields, fields.length + extra);
        if (m.clock() != 0) {
            more[fields.length] = Long.toString(m.clock());
        }
        if (m.windowFull() >= 0) {
            more[more.length - 1] = "full " + m.windowFull();
        }
        return more;
    }

    private static Map<String, String> parse(String keySpec) {
        Map<String, String> keys = new java.util.HashMap<>();
        for (String entry : keySpec.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("oneway.keys must read source=key;source=key (an entry has no '=')");
            }
            keys.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
        }
        return keys;
    }

    private static byte[] checkedKey(String source, String key) {
        if (key == null || key.length() < 16) {
            throw new IllegalArgumentException("the HMAC key of source '" + source + "' must have at least 16 characters");
        }
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
