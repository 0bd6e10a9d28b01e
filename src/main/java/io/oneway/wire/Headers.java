package io.oneway.wire;

/** Names of the transport headers Oneway sets (valid JMS property names). They only steer routing; the body is what is verified. */
public final class Headers {

    /** changes, ack, resend or heartbeat */
    public static final String KIND = "OnewayKind";
    /** the source the message belongs to */
    public static final String SOURCE = "OnewaySource";
    /** first position of a change frame: what the resequencer orders by */
    public static final String FIRST = "OnewayFirst";
    /** last position of a change frame */
    public static final String LAST = "OnewayLast";
    /** exchange property: true when the gate accepted the message */
    public static final String ACCEPTED = "OnewayAccepted";

    private Headers() {
    }
}
