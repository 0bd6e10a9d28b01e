package io.oneway.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

import io.oneway.support.OnewayMetrics;
import io.oneway.support.Refusals;

/**
 * Admits only messages that decode, belong to the expected source and carry a valid integrity
 * code. The body becomes the decoded {@link ChangeFrame} or {@link ControlMessage}; a change
 * whose code does not verify is removed from its frame, and a message with nothing valid left is
 * marked not accepted. Every refusal is counted and kept with its reason ({@link Refusals}: logged
 * quietly, told as a stall when it is what stops a source).
 */
public final class MessageGate implements Processor {

    private final WireCodec codec;
    private final MessageSigner signer;
    private final OnewayMetrics metrics;
    private final Refusals refusals;

    public MessageGate(WireCodec codec, MessageSigner signer, OnewayMetrics metrics, Refusals refusals) {
        this.codec = codec;
        this.signer = signer;
        this.metrics = metrics;
        this.refusals = refusals;
    }

    /** Exchange property {@link Headers#SOURCE}: the source this endpoint belongs to. */
    @Override
    public void process(Exchange exchange) {
        String expected = exchange.getProperty(Headers.SOURCE, String.class);
        exchange.setProperty(Headers.ACCEPTED, false);
        Object decoded;
        try {
            byte[] body = BodyBytes.read(exchange.getMessage(), codec.maxMessageBytes());
            metrics.count("oneway_bytes_received", expected, body.length);
            decoded = codec.decode(body);
        } catch (MalformedMessageException e) {
            refusals.refuse(expected, "malformed", e.getMessage() + ". Nothing was taken from it");
            return;
        }
        String source = decoded instanceof ChangeFrame f ? f.source()
                : decoded instanceof ChunkFrame k ? k.source() : ((ControlMessage) decoded).source();
        if (!signer.knows(source)) {
            refusals.refuse(expected, "unknown-source", "message from unknown source '" + source + "'. Nothing was taken from it");
            return;
        }
        if (expected != null && !expected.equals(source)) {
            String detail = "message of source '" + source + "' arrived on the endpoint of '" + expected + "'. Nothing was taken from it";
            refusals.refuse(expected, "wrong-source", detail);
            refusals.keep(source, "wrong-source", detail);
            return;
        }
        metrics.count("oneway_messages_received", source, 1);
        if (decoded instanceof ChangeFrame frame) {
            admitFrame(exchange, frame);
        } else if (decoded instanceof ChunkFrame chunk) {
            admitChunk(exchange, chunk);
        } else {
            admitControl(exchange, (ControlMessage) decoded);
        }
    }

    private void admitFrame(Exchange exchange, ChangeFrame frame) {
        List<ChangeRecord> valid = new ArrayList<>(frame.changes().size());
        String firstProblem = null;
        for (ChangeRecord received : frame.changes()) {
            // kept with its fingerprint, which the applier's digest chains
            ChangeRecord c = received.fingerprinted();
            Optional<String> problem = signer.check(frame.source(), frame.incarnation(), c);
            if (problem.isEmpty()) {
                valid.add(c);
            } else if (firstProblem == null) {
                firstProblem = "position " + c.position() + ": " + problem.get();
            }
        }
        int refused = frame.changes().size() - valid.size();
        if (refused > 0) {
            metrics.count("oneway_refused_changes", frame.source(), refused);
            refusals.refuse(frame.source(), "integrity", refused + " of " + frame.changes().size() + " changes dropped, first at " + firstProblem
                    + (valid.isEmpty() ? ". Nothing was taken from it" : "; the other " + valid.size() + " were taken")
                    + "; what was dropped is requested again");
        }
        if (valid.isEmpty()) {
            return;
        }
        ChangeFrame admitted = new ChangeFrame(frame.source(), frame.incarnation(), valid, frame.window());
        exchange.getMessage().setBody(admitted);
        exchange.getMessage().setHeader(Headers.KIND, "changes");
        exchange.getMessage().setHeader(Headers.FIRST, admitted.first());
        exchange.getMessage().setHeader(Headers.LAST, admitted.last());
        exchange.setProperty(Headers.ACCEPTED, true);
    }

    private void admitChunk(Exchange exchange, ChunkFrame frame) {
        ChangeChunk chunk = frame.chunk();
        Optional<String> problem = signer.check(frame.source(), frame.incarnation(), chunk);
        if (problem.isPresent()) {
            metrics.count("oneway_refused_changes", frame.source(), 1);
            refusals.refuse(frame.source(), "integrity", "piece " + (chunk.index() + 1) + " of " + chunk.count() + " of position "
                    + chunk.change().position() + " dropped: " + problem.get() + "; it is requested again");
            return;
        }
        exchange.getMessage().setBody(frame);
        exchange.getMessage().setHeader(Headers.KIND, "chunk");
        exchange.setProperty(Headers.ACCEPTED, true);
    }

    private void admitControl(Exchange exchange, ControlMessage message) {
        Optional<String> problem = signer.check(message);
        if (problem.isPresent()) {
            refusals.refuse(message.source(), "integrity", message.kind().wireName() + " message dropped: " + problem.get());
            return;
        }
        exchange.getMessage().setBody(message);
        exchange.getMessage().setHeader(Headers.KIND, message.kind().wireName());
        exchange.setProperty(Headers.ACCEPTED, true);
    }
}
