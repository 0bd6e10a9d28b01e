package io.oneway.wire;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;

import org.apache.camel.Message;
import org.apache.camel.WrappedFile;
import org.apache.camel.component.jms.JmsMessage;

/**
 * A message body as bytes, whatever a Camel component delivered (a JMS BytesMessage or
 * TextMessage, bytes, text, a stream, a file), with its size checked before it is read whole:
 * a transport is swapped by changing endpoints only, and an oversized message never fills the heap.
 */
final class BodyBytes {

    private BodyBytes() {
    }

    /** @throws MalformedMessageException when the body is empty or larger than {@code max} bytes */
    static byte[] read(Message message, int max) throws MalformedMessageException {
        try {
            if (message instanceof JmsMessage jms && jms.getJmsMessage() instanceof BytesMessage bytes) {
                checkSize(bytes.getBodyLength(), max);
            }
            Object body = message.getBody();
            if (body instanceof WrappedFile<?> wrapped) {
                body = wrapped.getFile();
            }
            byte[] out;
            if (body instanceof byte[] b) {
                out = b;
            } else if (body instanceof String text) {
                checkSize(text.length(), max);
                out = text.getBytes(StandardCharsets.UTF_8);
            } else if (body instanceof File file) {
                out = read(file.toPath(), max);
            } else if (body instanceof Path path) {
                out = read(path, max);
            } else if (body instanceof InputStream in) {
                out = read(in, max);
            } else if (body == null) {
                throw new MalformedMessageException("empty message");
            } else {
                out = message.getBody(byte[].class);
                if (out == null) {
                    throw new MalformedMessageException("a message body of type " + body.getClass().getName() + " cannot be read as bytes");
                }
            }
            checkSize(out.length, max);
            if (out.length == 0) {
                throw new MalformedMessageException("empty message");
            }
            return out;
        } catch (JMSException e) {
            throw new MalformedMessageException("cannot read the JMS message: " + e.getMessage());
        }
    }

    private static byte[] read(Path file, int max) throws MalformedMessageException {
        try {
            checkSize(Files.size(file), max);
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read message file " + file, e);
        }
    }

    private static byte[] read(InputStream in, int max) throws MalformedMessageException {
        try (in) {
            byte[] out = in.readNBytes(max + 1);
            checkSize(out.length, max);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a message stream", e);
        }
    }

    private static void checkSize(long size, int max) throws MalformedMessageException {
        if (size > max) {
            throw new MalformedMessageException("message of " + (size == max + 1L ? "more than " + max : Long.toString(size))
                    + " bytes is over the limit of " + max + " (oneway.wire.max-message-bytes)");
        }
    }
}
