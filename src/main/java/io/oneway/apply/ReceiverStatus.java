package io.oneway.apply;

/**
 * What one source's receiver looks like at a moment, published after every change of state so
 * that metrics and health read it without waiting for an apply in progress.
 *
 * @param applied        everything at or below it is applied
 * @param received       everything at or below it is applied or staged
 * @param highestKnown   the highest position the source said it sent, or any change arrived with
 * @param parkedChanges  changes held in memory ahead of {@code received}
 * @param parkedBytes    their size
 * @param staged         changes staged of a large transaction in progress
 * @param halted         true while the source is halted
 * @param lastHeardMillis when anything of the source last arrived (epoch ms), 0 for never
 * @param appliedLoggedAtMillis when the last applied change was made on the remote (epoch ms), 0 when not known
 * @param incarnation    the source's incarnation, null before first contact
 * @param digest         the running digest at {@code applied}, Base64
 */
public record ReceiverStatus(long applied, long received, long highestKnown, int parkedChanges, long parkedBytes, long staged,
        boolean halted, long lastHeardMillis, long appliedLoggedAtMillis, String incarnation, String digest) {

    static final ReceiverStatus NONE = new ReceiverStatus(0, 0, 0, 0, 0, 0, false, 0, 0, null, null);

    /** The same, with the source heard from at this time (epoch ms). */
    ReceiverStatus heardAt(long millis) {
        return new ReceiverStatus(applied, received, highestKnown, parkedChanges, parkedBytes, staged, halted, Math.max(lastHeardMillis, millis),
                appliedLoggedAtMillis, incarnation, digest);
    }
}
