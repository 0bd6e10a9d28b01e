package io.oneway.wire;

import org.apache.camel.Message;

/**
 * Signs and writes outgoing messages as UTF-8 bytes (a JMS BytesMessage: half the size of a
 * TextMessage, which Artemis holds as two bytes per character), and sets the routing headers
 * the other side's routes use.
 */
public final class MessageEncoder {

    private final WireCodec codec;
    private final MessageSigner signer;

    public MessageEncoder(WireCodec codec, MessageSigner signer) {
        this.codec = codec;
        this.signer = signer;
    }

    /** Replaces the body, a {@link ControlMessage}, with its signed wire form. */
    public void encodeControl(Message message) {
        ControlMessage control = signer.sign(message.getBody(ControlMessage.class));
        message.setBody(codec.encode(control));
        message.setHeader(Headers.KIND, control.kind().wireName());
        message.setHeader(Headers.SOURCE, control.source());
    }

    /** Replaces the body, a {@link ChangeFrame} with unsigned changes, with its signed wire form. */
    public void encodeFrame(Message message) {
        ChangeFrame frame = message.getBody(ChangeFrame.class);
        ChangeFrame signed = new ChangeFrame(frame.source(), frame.incarnation(),
                frame.changes().stream().map(c -> signer.sign(frame.source(), frame.incarnation(), c)).toList());
        message.setBody(codec.encode(signed));
        message.setHeader(Headers.KIND, "changes");
        message.setHeader(Headers.SOURCE, signed.source());
        message.setHeader(Headers.FIRST, signed.first());
        message.setHeader(Headers.LAST, signed.last());
    }
}
