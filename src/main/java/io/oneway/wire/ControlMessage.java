package io.oneway.wire;

/**
 * A protocol message without changes (SPEC §4). What {@code from}, {@code to}, {@code id},
 * {@code piece} and {@code digest} mean depends on the kind ({@code piece} is 0 but for a resend):
 * <table>
 * <tr><th>kind</th><th>direction</th><th>from</th><th>to</th><th>id</th><th>digest</th></tr>
 * <tr><td>ack</td><td>central → remote</td><td>applied: every change at or below it is applied</td>
 *     <td>received: every change at or below it is applied or staged durably</td><td>0</td><td>running digest at {@code from}</td></tr>
 * <tr><td>resend</td><td>central → remote</td><td>first position wanted</td><td>last position wanted</td><td>request id</td><td>null</td></tr>
 * <tr><td></td><td></td><td colspan="4">piece: when the first position is a change sent in pieces ({@link ChangeChunk}),
 *     the first piece wanted; the pieces before it arrived</td></tr>
 * <tr><td>heartbeat</td><td>remote → central</td><td>highest position captured (at least {@code to}; senders
 *     before it sent {@code to})</td><td>highest position sent</td>
 *     <td>id of the last resend request answered (its frames were sent before this heartbeat)</td><td>null</td></tr>
 * <tr><td></td><td></td><td colspan="4">clock: when it was made, by the source database's clock (epoch ms: the clock its
 *     changes' times are read on); 0 when not known, and for every other kind (wire field {@code clock}, left out when 0)</td></tr>
 * <tr><td></td><td></td><td colspan="4">windowFull: the sender's window is full and changes wait to be sent: what it holds
 *     as received ({@link WindowNote}); -1 when it has room, and for every other kind (wire field {@code full}, left out then)</td></tr>
 * <tr><td>digest-request</td><td>remote → central</td><td>first position</td><td>last position</td><td>0</td><td>null</td></tr>
 * <tr><td>digests</td><td>central → remote</td><td>first position</td><td>last position</td><td>0</td>
 *     <td>the fingerprints of from..to as the central database applied them, Base64, concatenated</td></tr>
 * </table>
 */
public record ControlMessage(Kind kind, String source, String incarnation, long from, long to, long id, int piece, String digest, long clock,
        long windowFull, String mac) {

    /** The kinds of control message. */
    public enum Kind {
        ACK("ack"), RESEND("resend"), HEARTBEAT("heartbeat"), DIGEST_REQUEST("digest-request"), DIGESTS("digests");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public static ControlMessage ack(String source, String incarnation, long applied, long received, String digest) {
        return new ControlMessage(Kind.ACK, source, incarnation, applied, received, 0, 0, digest, 0, -1, null);
    }

    public static ControlMessage resend(String source, String incarnation, long from, long to, long requestId) {
        return resend(source, incarnation, from, to, requestId, 0);
    }

    public static ControlMessage resend(String source, String incarnation, long from, long to, long requestId, int firstPiece) {
        return new ControlMessage(Kind.RESEND, source, incarnation, from, to, requestId, firstPiece, null, 0, -1, null);
    }

    public static ControlMessage heartbeat(String source, String incarnation, long highestCaptured, long highestSent, long answeredRequest,
            long clock) {
        return heartbeat(source, incarnation, highestCaptured, highestSent, answeredRequest, clock, -1);
    }

    /** @param windowFull what the sender holds as received when its window is full and changes wait to be sent, else -1 */
    public static ControlMessage heartbeat(String source, String incarnation, long highestCaptured, long highestSent, long answeredRequest,
            long clock, long windowFull) {
        return new ControlMessage(Kind.HEARTBEAT, source, incarnation, Math.max(highestCaptured, highestSent), highestSent, answeredRequest, 0, null,
                clock, windowFull, null);
    }

    public static ControlMessage digestRequest(String source, String incarnation, long from, long to) {
        return new ControlMessage(Kind.DIGEST_REQUEST, source, incarnation, from, to, 0, 0, null, 0, -1, null);
    }

    public static ControlMessage digests(String source, String incarnation, long from, long to, String fingerprints) {
        return new ControlMessage(Kind.DIGESTS, source, incarnation, from, to, 0, 0, fingerprints, 0, -1, null);
    }

    /** For a heartbeat: the highest position the source has captured, sent or not. */
    public long captured() {
        return from;
    }

    /** For an ack: everything at or below this position is applied. */
    public long applied() {
        return from;
    }

    /** For an ack: everything at or below this position is applied or durably staged on the central database. */
    public long received() {
        return to;
    }

    /** For a heartbeat: what it tells of the sender's window (with the highest position sent, {@code to}). */
    public WindowNote window() {
        return windowFull >= 0 ? WindowNote.full(windowFull) : WindowNote.ROOM;
    }

    public ControlMessage withMac(String newMac) {
        return new ControlMessage(kind, source, incarnation, from, to, id, piece, digest, clock, windowFull, newMac);
    }
}
