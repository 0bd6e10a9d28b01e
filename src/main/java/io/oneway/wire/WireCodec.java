package io.oneway.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;

/**
 * The message format (version 4), JSON in UTF-8:
 * <pre>
 * {"v":4, "kind":"changes", "source":S, "incarnation":I, ["ack":true,] ["full":n,]
 *  "changes":[{"p":position, "x":txid, "e":txEnd, "t":table, "o":op, "ref":reference, "k":{key}, "r":{row}|null,
 *              "at":loggedAt, "m":mac}, ...]}
 * {"v":4, "kind":"chunk", "source":S, "incarnation":I, ["ack":true,] ["full":n,]
 *  "chunk":{"p":..., "x":..., "e":..., "t":..., "o":..., "ref":..., "k":{key}, "at":..., "i":index, "n":count,
 *           "h":rowHash, "r":"piece of the row text", "m":mac}}
 * {"v":4, "kind":"ack"|"resend"|"heartbeat"|"digest-request"|"digests", "source":S, "incarnation":I,
 *  "from":n, "to":n, "id":n, "piece":n, "digest":text|null, ["clock":n,] ["full":n,] "mac":mac}
 *  (clock and full: heartbeats only, optional)
 * </pre>
 * (what from, to, id and digest mean per kind: {@link ControlMessage}; "ack" and "full": the sender's {@link WindowNote},
 * optional, skipped by the central sides of earlier versions as any unknown field). Version 4 makes a change's
 * "m" over its fingerprint ({@link MessageSigner}); version 3 made it over the fields themselves.
 * A change frame or chunk may travel compressed ({@link Compression}: LZ4 or zlib); decode reads all three forms.
 * Key and row are embedded as JSON objects, byte for byte as the remote database produced
 * them, and read back as exactly those bytes: the integrity code covers that text, the central
 * database parses it, and nothing in between escapes or unescapes it. Written and read as a
 * token stream, without building a tree.
 */
public final class WireCodec {

    private static final int VERSION = 4;
    /** What a change may be: a row's insert, update or delete, a schema change, a sequence value, a snapshot's marks and chunks. */
    private static final Set<String> OPERATIONS = Set.of("I", "U", "D", "S", "Q", "B", "C", "E");
    private final JsonFactory json = new JsonFactory();
    private final int maxMessageBytes;

    public WireCodec(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    /** The largest message accepted, in bytes. */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public byte[] encode(ChangeFrame frame) {
        ByteArrayBuilder out = new ByteArrayBuilder();
        try (JsonGenerator g = json.createGenerator(out)) {
            header(g, "changes", frame.source(), frame.incarnation());
            window(g, frame.window());
            g.writeArrayFieldStart("changes");
            for (ChangeRecord c : frame.changes()) {
                g.writeStartObject();
                writeChangeFields(g, c);
                g.writeFieldName("r");
                if (c.row() == null) {
                    g.writeNull();
                } else {
                    g.writeRawValue(c.row());
                }
                g.writeStringField("at", c.loggedAt());
                g.writeStringField("m", c.mac());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a message", e);
        }
        return out.toByteArray();
    }

    public byte[] encode(ChunkFrame frame) {
        ByteArrayBuilder out = new ByteArrayBuilder();
        try (JsonGenerator g = json.createGenerator(out)) {
            header(g, "chunk", frame.source(), frame.incarnation());
            window(g, frame.window());
            ChangeChunk k = frame.chunk();
            ChangeRecord c = k.change();
            g.writeObjectFieldStart("chunk");
            writeChangeFields(g, c);
            g.writeStringField("at", c.loggedAt());
            g.writeNumberField("i", k.index());
            g.writeNumberField("n", k.count());
            g.writeStringField("h", k.rowHash());
            g.writeStringField("r", k.piece());
            g.writeStringField("m", k.mac());
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a message", e);
        }
        return out.toByteArray();
    }

    public byte[] encode(ControlMessage message) {
        ByteArrayBuilder out = new ByteArrayBuilder();
        try (JsonGenerator g = json.createGenerator(out)) {
            header(g, message.kind().wireName(), message.source(), message.incarnation());
            g.writeNumberField("from", message.from());
            g.writeNumberField("to", message.to());
            g.writeNumberField("id", message.id());
            g.writeNumberField("piece", message.piece());
            g.writeStringField("digest", message.digest());
            if (message.clock() != 0) {
                g.writeNumberField("clock", message.clock());
            }
            if (message.windowFull() >= 0) {
                g.writeNumberField("full", message.windowFull());
            }
            g.writeStringField("mac", message.mac());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a message", e);
        }
        return out.toByteArray();
    }

    /** @return a {@link ChangeFrame}, a {@link ChunkFrame} or a {@link ControlMessage} */
    public Object decode(byte[] received) throws MalformedMessageException {
        if (received == null || received.length == 0) {
            throw new MalformedMessageException("empty message");
        }
        if (received.length > maxMessageBytes) {
            throw new MalformedMessageException("message of " + received.length + " bytes is over the limit of " + maxMessageBytes);
        }
        byte[] bytes = Compression.plain(received, maxMessageBytes);
        Fields m = new Fields();
        try (JsonParser p = json.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedMessageException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "v" -> m.version = integer(p, field);
                    case "kind" -> m.kind = text(p, field);
                    case "source" -> m.source = text(p, field);
                    case "incarnation" -> m.incarnation = text(p, field);
                    case "from" -> m.from = integer(p, field);
                    case "to" -> m.to = integer(p, field);
                    case "id" -> m.id = integer(p, field);
                    case "piece" -> m.piece = integer(p, field);
                    case "digest" -> m.digest = nullableText(p, field);
                    case "clock" -> m.clock = integer(p, field);
                    case "mac" -> m.mac = text(p, field);
                    case "ack" -> m.halfFull = bool(p, field);
                    case "full" -> m.full = integer(p, field);
                    case "changes" -> m.changes = changes(p, bytes);
                    case "chunk" -> m.chunk = chunk(p, bytes);
                    default -> p.skipChildren();
                }
                if (m.version != null && m.version != VERSION) {
                    throw new MalformedMessageException("unsupported message version " + m.version + " (this replicator reads version "
                            + VERSION + ": run the same Oneway version on both sides)");
                }
            }
            if (p.nextToken() != null) {
                throw new MalformedMessageException("data after the message");
            }
        } catch (JsonProcessingException e) {
            throw new MalformedMessageException("not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a message held in memory", e);
        }
        return m.message();
    }

    /** The top-level fields as read, in whatever order they came. */
    private static final class Fields {
        Long version;
        String kind;
        String source;
        String incarnation;
        Long from;
        Long to;
        Long id;
        Long piece;
        String digest;
        Long clock;
        String mac;
        List<ChangeRecord> changes;
        ChangeChunk chunk;
        boolean halfFull;
        Long full;

        Object message() throws MalformedMessageException {
            if (version == null) {
                throw new MalformedMessageException("field 'v' is missing or not an integer");
            }
            required(kind, "kind");
            required(source, "source");
            required(incarnation, "incarnation");
            if ("changes".equals(kind)) {
                if (changes == null || changes.isEmpty()) {
                    throw new MalformedMessageException("field 'changes' is missing or empty");
                }
                return new ChangeFrame(source, incarnation, changes, window());
            }
            if ("chunk".equals(kind)) {
                if (chunk == null) {
                    throw new MalformedMessageException("field 'chunk' is missing");
                }
                return new ChunkFrame(source, incarnation, chunk, window());
            }
            for (ControlMessage.Kind k : ControlMessage.Kind.values()) {
                if (k.wireName().equals(kind)) {
                    if (from == null || to == null || id == null || piece == null) {
                        throw new MalformedMessageException("field '" + (from == null ? "from" : to == null ? "to" : id == null ? "id" : "piece")
                                + "' is missing or not an integer");
                    }
                    if (piece < 0 || piece > Integer.MAX_VALUE) {
                        throw new MalformedMessageException("field 'piece' is out of range");
                    }
                    if (clock != null && clock < 0) {
                        throw new MalformedMessageException("field 'clock' is out of range");
                    }
                    required(mac, "mac");
                    return new ControlMessage(k, source, incarnation, from, to, id, piece.intValue(), digest, clock == null ? 0 : clock,
                            window().senderReceived(), mac);
                }
            }
            throw new MalformedMessageException("unknown message kind '" + kind + "'");
        }

        private WindowNote window() throws MalformedMessageException {
            if (full != null && full < 0) {
                throw new MalformedMessageException("field 'full' is out of range");
            }
            return full != null ? WindowNote.full(full) : halfFull ? new WindowNote(true, -1) : WindowNote.ROOM;
        }

        private static void required(String value, String field) throws MalformedMessageException {
            if (value == null) {
                throw new MalformedMessageException("field '" + field + "' is missing or not a string");
            }
        }
    }

    private static List<ChangeRecord> changes(JsonParser p, byte[] bytes) throws IOException, MalformedMessageException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new MalformedMessageException("field 'changes' is missing or empty");
        }
        List<ChangeRecord> out = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                throw new MalformedMessageException("a change is not a JSON object");
            }
            out.add(change(p, bytes));
        }
        return out;
    }

    private static ChangeChunk chunk(JsonParser p, byte[] bytes) throws IOException, MalformedMessageException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new MalformedMessageException("field 'chunk' is not a JSON object");
        }
        ChangeFields f = new ChangeFields();
        Long index = null;
        Long count = null;
        String hash = null;
        String piece = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "i" -> index = integer(p, field);
                case "n" -> count = integer(p, field);
                case "h" -> hash = text(p, field);
                case "r" -> piece = text(p, field);
                default -> f.read(p, bytes, field);
            }
        }
        if (index == null || count == null || count < 1 || index < 0 || index >= count || count > Integer.MAX_VALUE) {
            throw new MalformedMessageException("chunk index " + index + " of " + count + " is not valid");
        }
        if (hash == null || piece == null) {
            throw new MalformedMessageException("field '" + (hash == null ? "h" : "r") + "' is missing or not a string");
        }
        return new ChangeChunk(f.record(null, true, false), index.intValue(), count.intValue(), hash, piece, f.mac);
    }

    private static ChangeRecord change(JsonParser p, byte[] bytes) throws IOException, MalformedMessageException {
        ChangeFields f = new ChangeFields();
        String row = null;
        boolean rowSeen = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if ("r".equals(field)) {
                row = raw(p, bytes, field, true);
                rowSeen = true;
            } else {
                f.read(p, bytes, field);
            }
        }
        return f.record(row, rowSeen, true);
    }

    /** The fields a change and a chunk share, as read. */
    private static final class ChangeFields {
        Long position;
        Long txid;
        Boolean end;
        Boolean reference;
        String table;
        String op;
        String key;
        String at;
        String mac;

        void read(JsonParser p, byte[] bytes, String field) throws IOException, MalformedMessageException {
            switch (field) {
                case "p" -> position = integer(p, field);
                case "x" -> txid = integer(p, field);
                case "e" -> end = bool(p, field);
                case "ref" -> reference = bool(p, field);
                case "t" -> table = text(p, field);
                case "o" -> op = text(p, field);
                case "k" -> key = raw(p, bytes, field, false);
                case "at" -> at = text(p, field);
                case "m" -> mac = text(p, field);
                default -> p.skipChildren();
            }
        }

        /** @param rowSeen whether the row field was there (a chunk carries its piece instead) */
        ChangeRecord record(String row, boolean rowSeen, boolean withMac) throws MalformedMessageException {
            if (position == null || txid == null) {
                throw new MalformedMessageException("field '" + (position == null ? "p" : "x") + "' is missing or not an integer");
            }
            if (end == null || reference == null) {
                throw new MalformedMessageException("field '" + (end == null ? "e" : "ref") + "' is missing or not a boolean");
            }
            if (op == null || !OPERATIONS.contains(op)) {
                throw new MalformedMessageException(op == null ? "field 'o' is missing or not a string" : "unknown operation '" + op + "'");
            }
            if (table == null || key == null || !rowSeen || at == null || mac == null) {
                String missing = table == null ? "t" : key == null ? "k" : !rowSeen ? "r" : at == null ? "at" : "m";
                throw new MalformedMessageException("field '" + missing + "' is missing");
            }
            return new ChangeRecord(position, txid, end, table, op, reference, key, row, at, withMac ? mac : null);
        }
    }

    private static void writeChangeFields(JsonGenerator g, ChangeRecord c) throws IOException {
        g.writeNumberField("p", c.position());
        g.writeNumberField("x", c.txid());
        g.writeBooleanField("e", c.txEnd());
        g.writeStringField("t", c.table());
        g.writeStringField("o", c.op());
        g.writeBooleanField("ref", c.reference());
        g.writeFieldName("k");
        g.writeRawValue(c.key());
    }

    private static void header(JsonGenerator g, String kind, String source, String incarnation) throws IOException {
        g.writeStartObject();
        g.writeNumberField("v", VERSION);
        g.writeStringField("kind", kind);
        g.writeStringField("source", source);
        g.writeStringField("incarnation", incarnation);
    }

    /** Written only when there is something to tell, so frames without it are as before. */
    private static void window(JsonGenerator g, WindowNote note) throws IOException {
        if (note.halfFull()) {
            g.writeBooleanField("ack", true);
        }
        if (note.full()) {
            g.writeNumberField("full", note.senderReceived());
        }
    }

    /** The JSON object at the parser, as the exact bytes it was written with. */
    private static String raw(JsonParser p, byte[] bytes, String field, boolean nullable) throws IOException, MalformedMessageException {
        if (nullable && p.currentToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new MalformedMessageException("field '" + field + "' is not a JSON object");
        }
        int start = (int) p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        int end = (int) p.currentLocation().getByteOffset();
        return new String(bytes, start, end - start, StandardCharsets.UTF_8);
    }

    private static long integer(JsonParser p, String field) throws IOException, MalformedMessageException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new MalformedMessageException("field '" + field + "' is missing or not an integer");
        }
        return p.getLongValue();
    }

    private static boolean bool(JsonParser p, String field) throws MalformedMessageException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
            throw new MalformedMessageException("field '" + field + "' is missing or not a boolean");
        }
        return t == JsonToken.VALUE_TRUE;
    }

    private static String nullableText(JsonParser p, String field) throws IOException, MalformedMessageException {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : text(p, field);
    }

    private static String text(JsonParser p, String field) throws IOException, MalformedMessageException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw new MalformedMessageException("field '" + field + "' is missing or not a string");
        }
        return p.getText();
    }
}
