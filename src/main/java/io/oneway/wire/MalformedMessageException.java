package io.oneway.wire;

/** A message that cannot be read: not JSON, a field missing or of the wrong type, or too large. */
public final class MalformedMessageException extends Exception {

    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String reason) {
        super(reason);
    }
}
