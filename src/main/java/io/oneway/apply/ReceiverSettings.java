package io.oneway.apply;

/**
 * Tuning of the receiving side.
 *
 * @param resendAfterMillis       how long a gap known only from a heartbeat may last before it is requested
 * @param rerequestAfterMillis    how long an unanswered request waits before it is sent again (doubling)
 * @param maxRerequestAfterMillis the longest wait between repeated requests
 * @param settleMillis            how long after a heartbeat reported a request answered the answer is taken as lost
 *                                when the gap remains (the resequencer holds frames at most about this long)
 * @param maxParkedBytes          most bytes of changes held in memory ahead of the applied position, per source
 * @param maxRun                  changes per central transaction (whole source transactions; a larger one is staged)
 * @param maxRunBytes             bytes of key and row text per central transaction (likewise)
 * @param maxChangeBytes          the largest change accepted in pieces (oneway.wire.max-change-bytes)
 * @param ackRepeatMillis         an unchanged ack is sent again after this long, since acks get lost too
 * @param ackEvery                an ack goes out as soon as this many changes were applied since the last one, not at the
 *                                next tick: a sender whose window is full waits for it
 * @param progressMillis          apply progress is logged at most this often
 * @param requestCopies           how many times each resend request is sent (route send-replies): a lost request is
 *                                otherwise noticed only by waiting for its answer
 */
public record ReceiverSettings(long resendAfterMillis, long rerequestAfterMillis, long maxRerequestAfterMillis, long settleMillis,
        long maxParkedBytes, int maxRun, long maxRunBytes, long maxChangeBytes, long ackRepeatMillis, long ackEvery, long progressMillis,
        int requestCopies) {

    public ReceiverSettings {
        if (maxParkedBytes < 2 * maxRunBytes) {
            throw new IllegalArgumentException("oneway.apply.max-parked-bytes (" + maxParkedBytes
                    + ") must be at least twice oneway.apply.max-run-bytes (" + maxRunBytes + ")");
        }
        if (maxRun < 1 || rerequestAfterMillis < 1 || ackEvery < 1) {
            throw new IllegalArgumentException("oneway.apply.max-run, oneway.apply.rerequest-after and oneway.apply.ack-every must be positive");
        }
        if (requestCopies < 1) {
            throw new IllegalArgumentException("oneway.apply.request-copies (" + requestCopies + ") must be at least 1: with none, no missing "
                    + "change would ever be asked for");
        }
    }
}
