package io.oneway.wire;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A message body deflated for the wire (zlib, RFC 1950, at the fastest level;
 * oneway.wire.compression=deflate). Change frames shrink about four times, a little more than
 * with {@link Lz4}, at ten times its CPU.
 * A deflated body starts with 0x78, which no JSON message does, so a receiver reads both
 * whatever the sender's setting; zlib's checksum makes a corrupted body refused like any other
 * malformed message.
 */
final class Deflate {

    private static final byte ZLIB = 0x78;
    private static final int BUFFER = 64 * 1024;

    private Deflate() {
    }

    static byte[] deflate(byte[] plain) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(plain);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 3 + 64);
            byte[] buffer = new byte[Math.min(BUFFER, plain.length + 64)];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /** @return the body as sent: inflated when it was deflated, else itself */
    static byte[] plain(byte[] body, int max) throws MalformedMessageException {
        return body.length > 0 && body[0] == ZLIB ? inflate(body, max) : body;
    }

    /** @throws MalformedMessageException when the body is not whole, valid zlib data, or inflates past {@code max} bytes */
    private static byte[] inflate(byte[] body, int max) throws MalformedMessageException {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(body);
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(max, body.length * 4));
            byte[] buffer = new byte[BUFFER];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new MalformedMessageException("deflated message is cut short");
                }
                if (out.size() + n > max) {
                    throw new MalformedMessageException("deflated message inflates to more than the limit of " + max + " bytes");
                }
                out.write(buffer, 0, n);
            }
            if (inflater.getRemaining() > 0) {
                throw new MalformedMessageException("deflated message has " + inflater.getRemaining() + " bytes after its end");
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new MalformedMessageException("deflated message is corrupt: " + e.getMessage());
        } finally {
            inflater.end();
        }
    }
}
