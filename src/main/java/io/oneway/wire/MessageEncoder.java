package io.oneway.wire;

import org.apache.camel.Exchange;
import org.apache.camel.Message;

import io.oneway.support.OnewayMetrics;

/**
 * Signs and writes outgoing messages as UTF-8 bytes (a JMS BytesMessage: half the size of a
 * TextMessage, which Artemis holds as two bytes per character), and sets the routing headers
 * the other side's routes use.
 */
public final class MessageEncoder {

    private final WireCodec codec;
    private final MessageSigner signer;
    private final OnewayMetrics metrics;
    private final MessageNames names = new MessageNames();
    private final Compression compression;

    /** @param compression how change frames and chunks go (oneway.wire.compression: lz4, deflate or none) */
    public MessageEncoder(WireCodec codec, MessageSigner signer, OnewayMetrics metrics, String compression) {
        this.codec = codec;
        this.signer = signer;
        this.metrics = metrics;
        this.compression = Compression.of(compression);
    }

    /** Replaces the body, a {@link ControlMessage}, with its signed wire form. */
    public void encodeControl(Message message) {
        ControlMessage control = signer.sign(message.getBody(ControlMessage.class));
        written(message, control.source(), codec.encode(control));
        message.setHeader(Headers.KIND, control.kind().wireName());
        message.setHeader(Headers.SOURCE, control.source());
    }

    /**
     * Exchange property set by {@link #encodeFrame}: the highest position this message completes
     * (a chunk completes its change only with its last piece).
     */
    public static final String SENT_THROUGH = "OnewaySentThrough";

    /** Replaces the body, a {@link ChangeFrame} with unsigned changes or a {@link ChunkFrame} unsigned, with its signed wire form. */
    public void encodeFrame(Message message) {
        if (message.getBody() instanceof ChunkFrame chunkFrame) {
            encodeChunk(message, chunkFrame);
            return;
        }
        ChangeFrame frame = message.getBody(ChangeFrame.class);
        ChangeFrame signed = new ChangeFrame(frame.source(), frame.incarnation(),
                frame.changes().stream().map(c -> signer.sign(frame.source(), frame.incarnation(), c)).toList(), frame.window());
        writtenChanges(message, signed.source(), codec.encode(signed));
        message.setHeader(Headers.KIND, "changes");
        message.setHeader(Headers.SOURCE, signed.source());
        message.setHeader(Headers.FIRST, signed.first());
        message.setHeader(Headers.LAST, signed.last());
        message.getExchange().setProperty(SENT_THROUGH, signed.last());
    }

    /**
     * The body, counted, and a name in the order of writing for transports that keep messages
     * as files (the file transport writes it as the file's name and reads in name order). JMS
     * and AMQP do not carry Camel's own headers.
     */
    private void written(Message message, String source, byte[] body) {
        message.setBody(body);
        message.setHeader(Exchange.FILE_NAME, names.next());
        metrics.count("oneway_messages_sent", source, 1);
        metrics.count("oneway_bytes_sent", source, body.length);
    }

    /** A frame's or chunk's body, compressed as configured. */
    private void writtenChanges(Message message, String source, byte[] plain) {
        written(message, source, compression.compress(plain));
    }

    private void encodeChunk(Message message, ChunkFrame frame) {
        ChangeChunk signed = signer.sign(frame.source(), frame.incarnation(), frame.chunk());
        long position = signed.change().position();
        writtenChanges(message, frame.source(), codec.encode(new ChunkFrame(frame.source(), frame.incarnation(), signed, frame.window())));
        message.setHeader(Headers.KIND, "chunk");
        message.setHeader(Headers.SOURCE, frame.source());
        message.setHeader(Headers.FIRST, position);
        message.setHeader(Headers.LAST, position);
        message.getExchange().setProperty(SENT_THROUGH, signed.index() == signed.count() - 1 ? position : position - 1);
    }
}
