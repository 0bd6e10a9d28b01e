package io.oneway.wire;

/**
 * What a change frame or piece tells of the sender's window (SPEC §4, flow control). The central side otherwise acks
 * every oneway.apply.ack-every changes or at its tick, and applies a source transaction only once its end arrived or
 * stages it a run at a time: a window holding fewer changes or bytes than either (a small window, a few wide rows, a
 * transaction larger than the window) would wait for the tick each time it fills, or for ever. On a frame the note is not
 * covered by the changes' codes: forged, it can only bring an ack sooner or stage a transaction that would have been
 * applied whole; what is applied stays what the codes cover. A heartbeat's code covers its note.
 *
 * @param halfFull       half the window is sent and not received with this message: ack it as soon as it is applied,
 *                       so the next frames keep going meanwhile
 * @param senderReceived with this message the window is full, and the sender sends nothing new until an ack's received
 *                       passes this (what it holds as received): when everything up to the message is here and no
 *                       ack would move past it, the central side stages the open transaction; -1 when not full
 */
public record WindowNote(boolean halfFull, long senderReceived) {

    /** Nothing to tell: the window has room. */
    public static final WindowNote ROOM = new WindowNote(false, -1);

    public static WindowNote full(long senderReceived) {
        return new WindowNote(true, senderReceived);
    }

    public boolean full() {
        return senderReceived >= 0;
    }

    public boolean ackWanted() {
        return halfFull || full();
    }
}
