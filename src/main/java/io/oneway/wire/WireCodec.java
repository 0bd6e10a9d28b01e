package io.oneway.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The message format (version 1), JSON text:
 * <pre>
 * {"v":1, "kind":"changes", "source":S, "incarnation":I,
 *  "changes":[{"p":position, "x":txid, "e":txEnd, "t":table, "o":op, "ref":reference, "k":keyJson, "r":rowJson|null,
 *              "at":loggedAt, "m":mac}, ...]}
 * {"v":1, "kind":"ack"|"resend"|"heartbeat", "source":S, "incarnation":I, "from":n, "to":n, "mac":mac}
 * </pre>
 * Key and row are carried as JSON text inside strings, byte for byte as the remote database
 * produced them: the integrity code covers that text and the central database parses it.
 */
public final class WireCodec {

    private static final int VERSION = 1;
    private final ObjectMapper mapper = new ObjectMapper();
    private final int maxMessageChars;

    public WireCodec(int maxMessageChars) {
        this.maxMessageChars = maxMessageChars;
    }

    public String encode(ChangeFrame frame) {
        ObjectNode root = header("changes", frame.source(), frame.incarnation());
        ArrayNode changes = root.putArray("changes");
        for (ChangeRecord c : frame.changes()) {
            ObjectNode n = changes.addObject();
            n.put("p", c.position());
            n.put("x", c.txid());
            n.put("e", c.txEnd());
            n.put("t", c.table());
            n.put("o", c.op());
            n.put("ref", c.reference());
            n.put("k", c.key());
            n.put("r", c.row());
            n.put("at", c.loggedAt());
            n.put("m", c.mac());
        }
        return write(root);
    }

    public String encode(ControlMessage message) {
        ObjectNode root = header(message.kind().wireName(), message.source(), message.incarnation());
        root.put("from", message.from());
        root.put("to", message.to());
        root.put("mac", message.mac());
        return write(root);
    }

    /** @return a {@link ChangeFrame} or a {@link ControlMessage} */
    public Object decode(String text) throws MalformedMessageException {
        if (text == null) {
            throw new MalformedMessageException("empty message");
        }
        if (text.length() > maxMessageChars) {
            throw new MalformedMessageException("message of " + text.length() + " characters is over the limit of " + maxMessageChars);
        }
        JsonNode root;
        try {
            root = mapper.readTree(text);
        } catch (JsonProcessingException e) {
            throw new MalformedMessageException("not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new MalformedMessageException("not a JSON object");
        }
        if (integer(root, "v") != VERSION) {
            throw new MalformedMessageException("unsupported message version " + root.get("v"));
        }
        String kind = text(root, "kind", false);
        String source = text(root, "source", false);
        String incarnation = text(root, "incarnation", false);
        if ("changes".equals(kind)) {
            return new ChangeFrame(source, incarnation, changes(root));
        }
        for (ControlMessage.Kind k : ControlMessage.Kind.values()) {
            if (k.wireName().equals(kind)) {
                return new ControlMessage(k, source, incarnation, integer(root, "from"), integer(root, "to"), text(root, "mac", false));
            }
        }
        throw new MalformedMessageException("unknown message kind '" + kind + "'");
    }

    private List<ChangeRecord> changes(JsonNode root) throws MalformedMessageException {
        JsonNode array = root.get("changes");
        if (array == null || !array.isArray() || array.isEmpty()) {
            throw new MalformedMessageException("field 'changes' is missing or empty");
        }
        List<ChangeRecord> out = new ArrayList<>(array.size());
        for (JsonNode n : array) {
            if (!n.isObject()) {
                throw new MalformedMessageException("a change is not a JSON object");
            }
            boolean end = bool(n, "e");
            String op = text(n, "o", false);
            if (!op.equals("I") && !op.equals("U") && !op.equals("D")) {
                throw new MalformedMessageException("unknown operation '" + op + "'");
            }
            out.add(new ChangeRecord(integer(n, "p"), integer(n, "x"), end, text(n, "t", false), op, bool(n, "ref"),
                    text(n, "k", false), text(n, "r", true), text(n, "at", false), text(n, "m", false)));
        }
        return out;
    }

    private ObjectNode header(String kind, String source, String incarnation) {
        ObjectNode root = mapper.createObjectNode();
        root.put("v", VERSION);
        root.put("kind", kind);
        root.put("source", source);
        root.put("incarnation", incarnation);
        return root;
    }

    private String write(ObjectNode root) {
        try {
            return mapper.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a message", e);
        }
    }

    private static long integer(JsonNode n, String field) throws MalformedMessageException {
        JsonNode v = n.get(field);
        if (v == null || !v.canConvertToExactIntegral() || !v.canConvertToLong()) {
            throw new MalformedMessageException("field '" + field + "' is missing or not an integer");
        }
        return v.longValue();
    }

    private static boolean bool(JsonNode n, String field) throws MalformedMessageException {
        JsonNode v = n.get(field);
        if (v == null || !v.isBoolean()) {
            throw new MalformedMessageException("field '" + field + "' is missing or not a boolean");
        }
        return v.booleanValue();
    }

    private static String text(JsonNode n, String field, boolean nullable) throws MalformedMessageException {
        JsonNode v = n.get(field);
        if (v != null && v.isNull() && nullable) {
            return null;
        }
        if (v == null || !v.isTextual()) {
            throw new MalformedMessageException("field '" + field + "' is missing or not a string");
        }
        return v.textValue();
    }
}
