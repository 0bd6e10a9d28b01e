package io.oneway.apply;

/**
 * When to ask a source again for the first position missing on this side (the founding
 * document's step 2, with the timing that keeps a resend from multiplying traffic):
 * <ul>
 * <li>a gap seen in a frame (a later change arrived, and the resequencer already waited for the
 * missing one) is asked for at once;</li>
 * <li>a gap known only from a heartbeat (the sender sent further than what arrived) is usually
 * frames still queued behind it, so it is asked for only once it lasted {@code resendAfter}
 * without progress;</li>
 * <li>once asked for, it is asked for again when a heartbeat said the request was answered and
 * {@code settle} ms passed (the answer came before the heartbeat, and the resequencer held it at
 * most that long, so it was lost), and otherwise once no frame arrived for
 * {@code rerequestAfter}, doubling up to {@code maxRerequestAfter}: the request or every
 * heartbeat was lost. While frames still arrive, the answer may wait behind them, and a repeat
 * would only lengthen the queue; but no longer than three times that wait, since a request lost
 * while new changes keep coming would otherwise wait for the send window to fill.</li>
 * </ul>
 * The first wait is {@code rerequestAfter} until answers were timed; then, like TCP's
 * retransmission timeout, the time an answer takes plus four times its deviation, no less than
 * {@code settle} and no more than {@code rerequestAfter}. A link that answers in 30 ms then loses
 * a quarter of a second to a lost request, not a second with the sender's window full; a slow
 * link keeps the configured wait. Only gaps asked for once are timed: the answer to a repeated
 * request may be the first one's.
 * Pieces of the missing position arriving count as progress, and so does the first missing position moving on inside
 * the range last asked for: its answer is arriving, frame by frame, and asking again for the rest of it each time a
 * frame of it came sent most of it twice (after a kill -9 of the central side, five times the frames it had lost).
 */
final class GapTracker {

    private final long resendAfterMillis;
    private final long rerequestAfterMillis;
    private final long maxRerequestAfterMillis;
    private final long settleMillis;

    private long missing = -1;
    private long since;
    private long requestedAt;
    private long requestId = -1;
    private long requestedTo = -1;
    private boolean timed;
    private long interval;
    private long answered = -1;
    private long answeredAt;
    private long lastFrame;
    private boolean repeated;
    private long answerMillis = -1;
    private long answerDeviation;
    /** Requests sent for the current gap since it last moved or a piece of it came. */
    private int requests;

    GapTracker(long resendAfterMillis, long rerequestAfterMillis, long maxRerequestAfterMillis, long settleMillis) {
        this.resendAfterMillis = resendAfterMillis;
        this.rerequestAfterMillis = rerequestAfterMillis;
        this.maxRerequestAfterMillis = maxRerequestAfterMillis;
        this.settleMillis = settleMillis;
    }

    /** A heartbeat reported the request with this id answered. */
    void answered(long id, long now) {
        if (id > answered) {
            answered = id;
            answeredAt = now;
        }
    }

    /**
     * @param firstMissing first position neither received nor parked; -1 when nothing is missing
     * @param seenInFrame  a frame beyond the gap just arrived
     * @param now          the time, ms
     * @return true when the gap is to be asked for now (the caller then calls {@link #requested})
     */
    boolean due(long firstMissing, boolean seenInFrame, long now) {
        if (firstMissing != missing && requestedAt != 0 && !repeated && !timed) {
            timeAnswer(now - requestedAt);
            timed = true;
        }
        if (firstMissing < 0) {
            missing = -1;
            requestedAt = 0;
            return false;
        }
        if (firstMissing != missing) {
            boolean answering = requestedAt != 0 && firstMissing > missing && firstMissing <= requestedTo;
            missing = firstMissing;
            since = now;
            if (answering) {
                requestedAt = now;
            } else {
                requestedAt = 0;
                repeated = false;
                interval = firstWait();
            }
            requests = 0;
        }
        if (requestedAt == 0) {
            return seenInFrame || now - since >= resendAfterMillis;
        }
        return answered >= requestId && now - answeredAt >= settleMillis || now - Math.max(requestedAt, lastFrame) >= interval
                || now - requestedAt >= 3 * interval;
    }

    /** A request with this id was sent for the current gap, for the positions up to {@code to}. */
    void requested(long id, long to, long now) {
        if (requestedAt != 0) {
            interval = Math.min(interval * 2, maxRerequestAfterMillis);
            repeated = true;
        }
        requestedAt = now;
        requestId = id;
        requestedTo = to;
        timed = false;
        requests++;
    }

    /** An answer took this long: the estimate moves as TCP's smoothed round trip and its deviation do (RFC 6298). */
    private void timeAnswer(long millis) {
        if (answerMillis < 0) {
            answerMillis = millis;
            answerDeviation = millis / 2;
        } else {
            answerDeviation = (3 * answerDeviation + Math.abs(answerMillis - millis)) / 4;
            answerMillis = (7 * answerMillis + millis) / 8;
        }
    }

    /** How long a request waits for its answer before it is sent again, the first time. */
    private long firstWait() {
        if (answerMillis < 0) {
            return rerequestAfterMillis;
        }
        return Math.min(rerequestAfterMillis, Math.max(settleMillis, answerMillis + 4 * answerDeviation));
    }

    /** A frame of the source arrived (whatever its positions): the link still delivers what was queued. */
    void frameArrived(long now) {
        lastFrame = now;
    }

    /** Something of the missing position arrived (a piece): wait before asking again. */
    void progress(long now) {
        since = now;
        requests = 0;
        if (requestedAt != 0) {
            requestedAt = now;
        }
    }

    /** The first missing position being tracked, or -1. */
    long missing() {
        return missing;
    }

    /** Since when it is missing, ms. */
    long since() {
        return since;
    }

    /** The gap being tracked as the monitor reads it, or null when nothing is missing. */
    ReceiverStatus.Unanswered unanswered() {
        return missing < 0 ? null : new ReceiverStatus.Unanswered(missing, since, requests);
    }
}
