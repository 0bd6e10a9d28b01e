package io.oneway.apply;

/**
 * What one source's receiver looks like at a moment, published after every change of state so
 * that metrics and health read it without waiting for an apply in progress.
 *
 * @param applied        everything at or below it is applied
 * @param received       everything at or below it is applied or staged
 * @param highestKnown   the highest position the source said it sent, or any change arrived with
 * @param sourceCaptured the highest position the source said it captured (its heartbeats), sent or not
 * @param parkedChanges  changes held in memory ahead of {@code received}
 * @param parkedBytes    their size
 * @param staged         changes staged of a large transaction in progress
 * @param halted         true while the source is halted
 * @param lastHeardMillis when anything of the source last arrived (epoch ms), 0 for never
 * @param appliedLoggedAtMillis when the last applied change was made on the remote (epoch ms, by this replicator's clock: its time
 *                       plus {@code clockOffsetMillis}), 0 when not known
 * @param appliedAtMillis when the last change was applied (epoch ms), 0 for never
 * @param applyFailingSinceMillis since when applying fails for a reason that passes and is retried (epoch ms), 0 while it works
 * @param applyError     that failure, or null
 * @param incarnation    the source's incarnation, null before first contact
 * @param digest         the running digest at {@code applied}, Base64
 * @param clockOffsetMillis how far this replicator's clock is ahead of the source's (negative: behind), as its heartbeats tell,
 *                       0 when they agree within {@link ClockOffset#AGREE_MILLIS} or it is not known
 * @param unanswered     the first position missing and what was asked for it, or null when nothing is missing
 * @param unheard        what this side acked and the source's last heartbeat said it did not hear ({@link UnheardAcks}), or null
 */
public record ReceiverStatus(long applied, long received, long highestKnown, long sourceCaptured, int parkedChanges, long parkedBytes, long staged,
        boolean halted, long lastHeardMillis, long appliedLoggedAtMillis, long appliedAtMillis, long applyFailingSinceMillis, String applyError,
        String incarnation, String digest, long clockOffsetMillis, Unanswered unanswered, Unheard unheard) {

    static final ReceiverStatus NONE = new ReceiverStatus(0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0, null, null, null, 0, null, null);

    /** A position missing since {@code sinceMillis} (or since a piece of it last came), asked for {@code requests} times since. */
    public record Unanswered(long position, long sinceMillis, int requests) {
    }

    /**
     * A heartbeat that arrived at {@code heardAtMillis}, made at {@code madeAtMillis} (by this side's clock), said the source holds
     * only up to {@code sourceHolds} as received, while this side first acked more at {@code ackedAtMillis}.
     */
    public record Unheard(long sourceHolds, long ackedAtMillis, long madeAtMillis, long heardAtMillis) {
    }

    /**
     * Changes the source announced (heartbeats, frames) and not yet applied: those it sent, and those
     * it captured and holds back (its window full, the link down), as its last heartbeat said; those
     * alone read 0 while this side has applied every change sent and the rest wait at the source.
     */
    public long backlog() {
        return Math.max(0, Math.max(highestKnown, sourceCaptured) - applied);
    }

    /**
     * How late this side is, in seconds: while announced changes wait, the age of the last applied
     * one; otherwise the delay the last apply had (applied minus captured), for {@code recentMillis}
     * after it; 0 after that, and 0 for a source whose changes' times are not known. Between two
     * frames of a backlog that waits in the broker, this side has applied all it has read and the
     * source's heartbeats queue behind those frames, so "nothing announced waits" is not "caught up":
     * minutes behind read 0 between frames before the last apply's delay was kept.
     */
    public double lagSeconds(long now, long recentMillis) {
        if (appliedLoggedAtMillis == 0) {
            return 0;
        }
        if (backlog() > 0) {
            return Math.max(0, now - appliedLoggedAtMillis) / 1000.0;
        }
        return now - appliedAtMillis <= recentMillis ? Math.max(0, appliedAtMillis - appliedLoggedAtMillis) / 1000.0 : 0;
    }

    /** The same, with the source heard from at this time (epoch ms), saying it captured up to {@code captured}. */
    ReceiverStatus heardAt(long millis, long captured) {
        return new ReceiverStatus(applied, received, highestKnown, Math.max(sourceCaptured, captured), parkedChanges, parkedBytes, staged, halted,
                Math.max(lastHeardMillis, millis), appliedLoggedAtMillis, appliedAtMillis, applyFailingSinceMillis, applyError, incarnation, digest,
                clockOffsetMillis, unanswered, unheard);
    }
}
