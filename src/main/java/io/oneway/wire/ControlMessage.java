package io.oneway.wire;

/**
 * A protocol message without changes (SPEC §4): an ack (central to remote, {@code to} is the
 * processed low position), a resend request (central to remote, positions {@code from..to}), or
 * a heartbeat (remote to central, {@code to} is the highest position sent).
 */
public record ControlMessage(Kind kind, String source, String incarnation, long from, long to, String mac) {

    /** The kinds of control message. */
    public enum Kind {
        ACK, RESEND, HEARTBEAT;

        public String wireName() {
            return name().toLowerCase();
        }
    }

    public static ControlMessage ack(String source, String incarnation, long applied) {
        return new ControlMessage(Kind.ACK, source, incarnation, applied, applied, null);
    }

    public static ControlMessage resend(String source, String incarnation, long from, long to) {
        return new ControlMessage(Kind.RESEND, source, incarnation, from, to, null);
    }

    public static ControlMessage heartbeat(String source, String incarnation, long highestSent) {
        return new ControlMessage(Kind.HEARTBEAT, source, incarnation, highestSent, highestSent, null);
    }

    public ControlMessage withMac(String newMac) {
        return new ControlMessage(kind, source, incarnation, from, to, newMac);
    }
}
