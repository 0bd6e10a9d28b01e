package io.oneway.capture;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Whether capture from the WAL goes on, judged from outside the reader (the transfer monitor's
 * thread), so that a reader that hangs without an error is seen too: a slot that lost or is about
 * to lose WAL it needs; a slot behind the WAL whose confirmed position, the WAL sender's
 * position and the reader's own counts all stood still for oneway.capture.wal-stuck-after ms; and
 * a reader inside one read that has read and recorded nothing for as long. An idle slot is never
 * stuck: the WAL sender's keepalives carry it to the end of the WAL.
 */
final class SlotWatch {

    /** One look at the slot and the reader. */
    record Look(String walStatus, boolean active, String waitEvent, long behindBytes, String confirmedLsn, String sentLsn,
            long readerMessages, long readerChanges, Instant pollStartedAt, Instant lastPollEndedAt) {
    }

    private final String slot;
    private final Duration stuckAfter;
    private Look previous;
    /** Since when neither the slot nor the reader moved while behind. */
    private Instant stillSince;
    /** When the reader last read or recorded anything. */
    private Instant readerMovedAt;

    SlotWatch(String slot, Duration stuckAfter) {
        this.slot = slot;
        this.stuckAfter = stuckAfter;
    }

    /** @return what stops capture from the WAL, or null */
    String observe(Look look, Instant now) {
        boolean readerMoved = previous == null || previous.readerMessages() != look.readerMessages()
                || previous.readerChanges() != look.readerChanges();
        if (readerMoved) {
            readerMovedAt = now;
        }
        if (readerMoved || look.behindBytes() <= 0 || !Objects.equals(previous.confirmedLsn(), look.confirmedLsn())
                || !Objects.equals(previous.sentLsn(), look.sentLsn())) {
            stillSince = now;
        }
        previous = look;
        if ("lost".equals(look.walStatus())) {
            return "replication slot " + slot + " lost WAL it needed (max_slot_wal_keep_size passed): changes are missing; onboard the tables again";
        }
        if ("unreserved".equals(look.walStatus())) {
            return "replication slot " + slot + " is about to lose WAL it needs (" + look.behindBytes()
                    + " bytes behind, past max_slot_wal_keep_size): capture from the WAL is behind";
        }
        // the WAL sender goes on decoding (other tables' WAL too) while the reader waits: a read that stands still is enough
        Instant readerStill = look.pollStartedAt() == null ? null : later(look.pollStartedAt(), readerMovedAt);
        Duration still = readerStill != null && Duration.between(readerStill, now).compareTo(stuckAfter) >= 0
                ? Duration.between(readerStill, now) : Duration.between(stillSince, now);
        if (still.compareTo(stuckAfter) < 0) {
            return null;
        }
        return "capture from the WAL stands still: replication slot " + slot + " is " + look.behindBytes() + " bytes behind the WAL and "
                + "the reader has not moved for " + still.toSeconds() + " s; " + sender(look) + "; " + reader(look, now);
    }

    /** Forgets what it saw: the reader failed, and says so itself. */
    void reset() {
        previous = null;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static String sender(Look look) {
        if (!look.active()) {
            return "no connection reads the slot";
        }
        String wait = look.waitEvent() == null ? "nothing" : look.waitEvent();
        return "its WAL sender waits on " + wait + ("WalSenderWriteData".equalsIgnoreCase(wait) ? " (the reader does not take what it sends)" : "");
    }

    private static String reader(Look look, Instant now) {
        if (look.pollStartedAt() != null) {
            return "the reader is inside one read for " + Duration.between(look.pollStartedAt(), now).toSeconds()
                    + " s (recording in the change log waits on the remote database)";
        }
        if (look.lastPollEndedAt() == null) {
            return "the reader has not read yet (is route read-wal started?)";
        }
        return "the reader's last read ended " + Duration.between(look.lastPollEndedAt(), now).toSeconds() + " s ago"
                + " (route read-wal polls every oneway.capture.wal-poll-delay ms while it runs)";
    }
}
