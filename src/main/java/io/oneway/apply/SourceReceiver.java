package io.oneway.apply;

import java.io.ByteArrayOutputStream;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.OnewayMetrics;
import io.oneway.support.ProgressLog;
import io.oneway.support.Refusals;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ChunkFrame;
import io.oneway.wire.ControlMessage;
import io.oneway.wire.Fingerprint;
import io.oneway.wire.WindowNote;

/**
 * The receiving side of one source: its durable progress (applied, staged, digest: on the
 * central database), changes that arrived ahead ({@link ParkedChanges}), changes arriving in
 * pieces ({@link ChunkAssembler}), when to ask for what is missing ({@link GapTracker}) and when
 * to ack. Calls are serialised per source; readers of metrics and health see the
 * {@link ReceiverStatus} published after each call instead of waiting for an apply, and while
 * an apply runs (a staged transaction of millions of changes takes a while) the periodic tick
 * repeats the last ack from it, so the source knows this side is alive.
 */
final class SourceReceiver {

    private static final Logger LOG = LoggerFactory.getLogger(SourceReceiver.class);
    /** Fingerprints sent per answer to a digest request. */
    private static final int DIGESTS_PER_ANSWER = 10_000;

    private final String source;
    private final ChangeApplier applier;
    private final OnewayMetrics metrics;
    private final ReceiverSettings settings;
    private final AtomicLong requestIds;
    private final ParkedChanges parked;
    private final ChunkAssembler pieces;
    private final GapTracker gap;
    private final ProgressLog progress;
    private final Refusals refusals;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicReference<ReceiverStatus> status = new AtomicReference<>(ReceiverStatus.NONE);
    private volatile long heardWhileBusy;
    private final AtomicLong announcedWhileBusy = new AtomicLong();
    /** The highest position the source's heartbeats said it captured: what waits there counts in the backlog. */
    private final AtomicLong sourceCaptured = new AtomicLong();
    /** How far this replicator's clock is ahead of the source's: its changes' times are read on that clock. */
    private final ClockOffset clock = new ClockOffset();
    /** Whether the source hears this side's acks, as its heartbeats tell. */
    private final UnheardAcks acks = new UnheardAcks();

    private boolean loaded;
    private long applied;
    private long staged;
    private byte[] digest;
    private String incarnation;
    private volatile boolean halted;
    private Set<Long> skipped = Set.of();
    private long highestKnown;
    private long lastHeard;
    private long appliedLoggedAt;
    private long appliedAt;
    private long ackedApplied = -1;
    private long ackedReceived = -1;
    private long ackSentAt;
    /** The last message with which the sender's window was full, and what the sender held as received then (WindowNote). */
    private long windowFullAt;
    private long senderReceived = -1;
    /** Since when applying fails for a reason that passes (connection, resources, a timeout), epoch ms; 0 while it works. */
    private long applyFailingSince;
    private String applyError;
    private long resumeCheckedAt;

    SourceReceiver(String source, ChangeApplier applier, OnewayMetrics metrics, Refusals refusals, ReceiverSettings settings, AtomicLong requestIds) {
        this.source = source;
        this.applier = applier;
        this.metrics = metrics;
        this.refusals = refusals;
        this.settings = settings;
        this.requestIds = requestIds;
        this.parked = new ParkedChanges(settings.maxParkedBytes());
        this.pieces = new ChunkAssembler(settings.maxParkedBytes(), settings.maxChangeBytes());
        this.progress = new ProgressLog(SourceReceiver.class.getName(), "Source " + source + ": applied", settings.progressMillis());
        this.gap = new GapTracker(settings.resendAfterMillis(), settings.rerequestAfterMillis(), settings.maxRerequestAfterMillis(),
                settings.settleMillis());
    }

    ReceiverStatus status() {
        return status.get();
    }

    /** Reads the source's durable progress before anything of it arrives, so its metrics are right from the start. */
    void prepare() {
        lock.lock();
        try {
            load();
        } catch (SQLException e) {
            // read again when the first message of the source arrives
        } finally {
            lock.unlock();
        }
    }

    Optional<ControlMessage> onFrame(ChangeFrame frame) throws SQLException {
        lock.lock();
        try {
            load();
            if (!acceptIncarnation(frame.incarnation()) || halted) {
                return Optional.empty();
            }
            Instant now = Instant.now();
            lastHeard = now.toEpochMilli();
            long duplicates = 0;
            for (ChangeRecord c : frame.changes()) {
                highestKnown = Math.max(highestKnown, c.position());
                if (c.position() <= received()) {
                    duplicates++;
                } else {
                    parked.add(c, now, received() + 1);
                }
            }
            if (duplicates > 0) {
                metrics.count("oneway_duplicate_changes", source, duplicates);
            }
            noteWindow(frame.window(), frame.last());
            // what arrived shows as waiting while it is applied (a slow apply run can take minutes)
            publish();
            drain();
            Optional<ControlMessage> request = published(gapRequest(true));
            if (request.isPresent()) {
                return request;
            }
            if (duplicates == frame.changes().size()) {
                // only changes this side has: a retransmission, so the source did not get the last ack
                return ackDue(applied, received(), Fingerprint.text(digest), settings.settleMillis());
            }
            return applied - ackedApplied() < settings.ackEvery() && !frame.window().ackWanted() ? request
                    : ackDue(applied, received(), Fingerprint.text(digest), settings.ackRepeatMillis());
        } finally {
            lock.unlock();
        }
    }

    Optional<ControlMessage> onChunk(ChunkFrame frame) throws SQLException {
        lock.lock();
        try {
            load();
            if (!acceptIncarnation(frame.incarnation()) || halted) {
                return Optional.empty();
            }
            long now = System.currentTimeMillis();
            lastHeard = now;
            ChangeRecord header = frame.chunk().change();
            highestKnown = Math.max(highestKnown, header.position());
            if (header.position() <= received() || parked.contains(header.position())) {
                metrics.count("oneway_duplicate_changes", source, 1);
                return published(Optional.empty());
            }
            Optional<ChangeRecord> whole;
            try {
                whole = pieces.add(frame.chunk());
            } catch (IllegalArgumentException e) {
                if (e.getMessage().contains("max-change-bytes")) {
                    halt(new ApplyHaltException(header, e.getMessage() + " of this central replicator: raise it, then ./oneway resume " + source));
                } else {
                    LOG.warn("Source {}: {}; asking for it again", source, e.getMessage());
                }
                return published(Optional.empty());
            }
            if (header.position() == gap.missing()) {
                gap.progress(now);
            }
            whole.ifPresent(c -> parked.add(c, Instant.ofEpochMilli(now), received() + 1));
            noteWindow(frame.window(), header.position());
            publish();
            drain();
            Optional<ControlMessage> request = published(gapRequest(whole.isPresent()));
            return request.isPresent() || !frame.window().ackWanted() ? request
                    : ackDue(applied, received(), Fingerprint.text(digest), settings.ackRepeatMillis());
    
        } finally {
            lock.unlock();
        }
    }

    Optional<ControlMessage> onHeartbeat(ControlMessage heartbeat) throws SQLException {
        if (!lock.tryLock()) {
            // a long apply holds the lock (a large staged transaction can take minutes): the source is
            // alive all the same, so say so at once instead of blocking this consumer until the apply ends;
            // what the heartbeat announces is taken into account by the next locked step (if it is of the
            // incarnation replicated here: the status is what the locked steps last published)
            heardWhileBusy = System.currentTimeMillis();
            if (heartbeat.incarnation() != null && heartbeat.incarnation().equals(status.get().incarnation())) {
                announcedWhileBusy.accumulateAndGet(heartbeat.to(), Math::max);
                sourceCaptured.accumulateAndGet(heartbeat.captured(), Math::max);
            }
            long heard = heardWhileBusy;
            long captured = sourceCaptured.get();
            status.updateAndGet(st -> st.heardAt(heard, captured));
            return Optional.empty();
        }
        try {
            load();
            if (!acceptIncarnation(heartbeat.incarnation()) || halted) {
                return Optional.empty();
            }
            long now = System.currentTimeMillis();
            lastHeard = now;
            if (heartbeat.captured() <= heartbeat.to() && received() >= heartbeat.to()) {
                // made while the source held nothing back, and here when all it had sent was: not queued behind a backlog's frames,
                // held back at the source or sent and waiting in the broker (a central side slower than its source: the first such
                // heartbeat had waited 15.8 s there, read as the source's clock being as slow, and its late changes as on time)
                clock.heard(heartbeat.clock(), now);
                Optional.ofNullable(clock.news(source)).ifPresent(LOG::warn);
            }
            highestKnown = Math.max(highestKnown, heartbeat.to());
            sourceCaptured.accumulateAndGet(heartbeat.captured(), Math::max);
            // what the note calls for (staging) is done by the next tick, not on this consumer's thread, which a long
            // apply would keep from the heartbeats that follow
            noteWindow(heartbeat.window(), heartbeat.to());
            acks.heard(heartbeat.window(), received(), heartbeat.clock(), clock, now);
            gap.answered(heartbeat.id(), now);
            Optional<ControlMessage> request = published(gapRequest(false));
            if (request.isPresent() || heartbeat.to() > received()) {
                return request;
            }
            // Everything the source sent is here. If the last ack was lost, the source waits for it (its
            // window full, or its purge held back) until oneway.apply.ack-repeat: say it again now instead.
            return ackDue(applied, received(), Fingerprint.text(digest), settings.settleMillis());
    
        } finally {
            lock.unlock();
        }
    }

    /** A remote looking for where a digest mismatch began: the fingerprints of what was applied from its first position. */
    Optional<ControlMessage> onDigestRequest(ControlMessage request) throws SQLException {
        lock.lock();
        try {
            load();
            if (!acceptIncarnation(request.incarnation())) {
                return Optional.empty();
            }
            long to = Math.min(Math.min(request.to(), applied), request.from() + DIGESTS_PER_ANSWER - 1);
            List<byte[]> fingerprints = request.from() > to ? List.of() : applier.fingerprints(source, request.from(), to);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            fingerprints.forEach(out::writeBytes);
            return Optional.of(ControlMessage.digests(source, incarnation, request.from(), request.from() + fingerprints.size() - 1,
                    Base64.getEncoder().encodeToString(out.toByteArray())));
    
        } finally {
            lock.unlock();
        }
    }

    /** Periodic work: retry applying after a passing failure, re-request what is still missing, send or repeat the ack. */
    List<ControlMessage> tick() {
        if (!lock.tryLock()) {
            ReceiverStatus st = status.get();
            return ackDue(st.applied(), st.received(), st.digest(), settings.ackRepeatMillis()).map(List::of).orElse(List.of());
        }
        try {
            List<ControlMessage> out = new ArrayList<>(2);
            if (halted) {
                checkResumed();
            }
            if (!loaded || halted) {
                publish();
                return out;
            }
            drain();
            gapRequest(false).ifPresent(out::add);
            ackDue(applied, received(), Fingerprint.text(digest), settings.ackRepeatMillis()).ifPresent(out::add);
            publish();
            return out;
        } finally {
            lock.unlock();
        }
    }

    private synchronized long ackedApplied() {
        return ackedApplied;
    }

    /**
     * The ack, when it moved or the last one is older than repeatMillis (oneway.apply.ack-repeat; shorter when
     * the source shows it missed one). Called by the tick thread, and by the applying thread once
     * oneway.apply.ack-every changes went unacknowledged or a message of the source asks for it.
     */
    private synchronized Optional<ControlMessage> ackDue(long appliedNow, long receivedNow, String digestNow, long repeatMillis) {
        long now = System.currentTimeMillis();
        String knownIncarnation = status.get().incarnation();
        // appliedNow below the last ack: the tick read a status older than an ack the applying thread just sent
        if (receivedNow <= 0 || knownIncarnation == null || halted || appliedNow < ackedApplied
                || appliedNow == ackedApplied && receivedNow == ackedReceived && now - ackSentAt < repeatMillis) {
            return Optional.empty();
        }
        ackedApplied = appliedNow;
        ackedReceived = receivedNow;
        ackSentAt = now;
        acks.sent(receivedNow, now);
        return Optional.of(ControlMessage.ack(source, knownIncarnation, appliedNow, receivedNow, digestNow));
    }

    private long received() {
        return Math.max(applied, staged);
    }

    private void drain() {
        while (!halted) {
            boolean done;
            try {
                done = staged > applied ? continueStaged() : applyOrStage();
            } catch (ApplyHaltException e) {
                halt(e);
                return;
            } catch (StaleProgressException e) {
                LOG.warn("Source {}: {}; continuing from there", source, e.getMessage());
                reload();
                continue;
            } catch (SQLException | RuntimeException e) {
                applyError = failure(e);
                if (applyFailingSince == 0) {
                    LOG.warn("Source {}: applying after position {} failed for now ({}); retrying", source, received(), applyError);
                    applyFailingSince = System.currentTimeMillis();
                }
                return;
            }
            if (applyFailingSince != 0) {
                LOG.info("Source {}: applying works again", source);
                applyFailingSince = 0;
                applyError = null;
            }
            if (done) {
                return;
            }
        }
    }

    /** @return true when there is nothing more to do now */
    private boolean applyOrStage() throws SQLException, ApplyHaltException {
        ParkedChanges.Run run = parked.run(applied + 1, settings.maxRun(), settings.maxRunBytes(), true);
        if (!run.changes().isEmpty()) {
            try {
                digest = applier.apply(source, run.changes(), run.receivedAt(), skipped, digest);
            } catch (ApplyHaltException e) {
                applyBefore(run, e);
                throw e;
            }
            applied(run.changes().get(run.changes().size() - 1), run.changes().size());
            return false;
        }
        ParkedChanges.Run open = parked.run(applied + 1, settings.maxRun(), settings.maxRunBytes(), false);
        if (open.limitReached() || senderWaits(open)) {
            stage(open);
            return false;
        }
        return true;
    }

    /**
     * A run halted at a change: the whole source transactions before that change's are applied,
     * so that the source stops exactly at its transaction.
     */
    private void applyBefore(ParkedChanges.Run run, ApplyHaltException halt) throws SQLException {
        List<ChangeRecord> before = new ArrayList<>();
        int complete = 0;
        for (ChangeRecord c : run.changes()) {
            if (c.txid() == halt.change().txid() || c.position() >= halt.change().position()) {
                break;
            }
            before.add(c);
            complete = c.txEnd() ? before.size() : complete;
        }
        if (complete > 0) {
            try {
                digest = applier.apply(source, before.subList(0, complete), run.receivedAt(), skipped, digest);
                applied(before.get(complete - 1), complete);
            } catch (ApplyHaltException e) {
                LOG.warn("Source {}: the transactions before the halting one were refused too ({})", source, e.getMessage());
            }
        }
    }

    /** A message said the sender's window is full with it ({@link WindowNote}): the latest such is kept. */
    private void noteWindow(WindowNote note, long through) {
        if (note.full() && through >= windowFullAt) {
            windowFullAt = through;
            senderReceived = note.senderReceived();
        }
    }

    /**
     * Whether the open transaction must be staged now, short of a run's limits: the sender's window is full, everything
     * it sent is here, and no ack could move past what it holds as received, so it would send nothing more (a transaction
     * larger than the window, which only a run's limits would stage otherwise).
     */
    private boolean senderWaits(ParkedChanges.Run open) {
        return !open.changes().isEmpty() && windowFullAt > received() && open.last() >= windowFullAt && received() <= senderReceived;
    }

    /** A large transaction is being staged: stage more of it, or apply it once its end arrived. */
    private boolean continueStaged() throws SQLException, ApplyHaltException {
        ParkedChanges.Run run = parked.run(staged + 1, settings.maxRun(), settings.maxRunBytes(), false);
        if (run.changes().isEmpty()) {
            return true;
        }
        if (run.changes().get(run.changes().size() - 1).txEnd()) {
            long first = applied + 1;
            digest = applier.applyStaged(source, applied, staged, run.changes(), skipped, digest);
            applied(run.changes().get(run.changes().size() - 1), (int) (run.last() - first + 1));
            return false;
        }
        if (run.limitReached() || senderWaits(run)) {
            stage(run);
            return false;
        }
        return true;
    }

    private void stage(ParkedChanges.Run run) throws SQLException {
        applier.stage(source, run.changes(), run.receivedAt());
        if (staged <= applied) {
            LOG.info("Source {}: transaction {} from position {} is larger than a run (oneway.apply.max-run / max-run-bytes): staging it "
                    + "until its end arrives, then applying it whole", source, run.changes().get(0).txid(), run.changes().get(0).position());
        }
        staged = run.last();
        parked.removeThrough(staged);
        pieces.removeThrough(staged);
        metrics.count("oneway_staged_changes", source, run.changes().size());
        // an ack sent while the staged transaction is applied says it is received (the source's window moves on)
        publish();
    }

    private void applied(ChangeRecord last, int changes) {
        applied = last.position();
        long loggedAt = loggedAt(last);
        // by this replicator's clock, as every other time it compares with
        appliedLoggedAt = loggedAt == 0 ? 0 : loggedAt + clock.millis();
        appliedAt = System.currentTimeMillis();
        parked.removeThrough(applied);
        pieces.removeThrough(applied);
        metrics.count("oneway_applied_changes", source, changes);
        progress.add(changes, 1, applied);
        publish();
    }

    /** The error's first line and SQLSTATE, as the stall apply-failing tells it. */
    private static String failure(Exception e) {
        if (e instanceof SQLException sql) {
            return ChangeApplier.describe(sql);
        }
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** When a change was made on the remote (epoch ms), or 0 when its time does not read as an ISO-8601 instant. */
    private static long loggedAt(ChangeRecord change) {
        try {
            return Instant.parse(change.loggedAt()).toEpochMilli();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** A resend request for the first missing range, if one is due ({@link GapTracker}). */
    private Optional<ControlMessage> gapRequest(boolean frameArrived) {
        if (halted || incarnation == null) {
            return Optional.empty();
        }
        long missing = parked.contiguousEnd(received() + 1) + 1;
        long now = System.currentTimeMillis();
        if (missing > highestKnown) {
            gap.due(-1, false, now);
            return Optional.empty();
        }
        Long nextParked = parked.ceiling(missing);
        if (!gap.due(missing, frameArrived && nextParked != null, now)) {
            return Optional.empty();
        }
        long id = requestIds.incrementAndGet();
        long to = nextParked != null ? nextParked - 1 : highestKnown;
        gap.requested(id, to, now);
        metrics.count("oneway_resend_requests", source, 1);
        LOG.debug("Source {}: requesting positions {}..{} (request {})", source, missing, to, id);
        return Optional.of(ControlMessage.resend(source, incarnation, missing, to, id, pieces.firstMissingPiece(missing)));
    }

    private boolean acceptIncarnation(String offered) throws SQLException {
        if (offered == null) {
            return false;
        }
        if (incarnation == null) {
            applier.recordIncarnation(source, offered);
            incarnation = applier.progress(source).incarnation();
            LOG.info("Source {}: first contact, incarnation {}", source, incarnation);
        }
        if (incarnation.equals(offered)) {
            return true;
        }
        refusals.refuse(source, "incarnation", "message of incarnation " + offered + "; this central database replicates its incarnation "
                + incarnation + ": the remote database was re-installed or restored from a backup, re-onboard it");
        return false;
    }

    /** An operator resumes a halted source (./oneway resume or skip) on the central database; notice it within seconds. */
    private void checkResumed() {
        long now = System.currentTimeMillis();
        if (now - resumeCheckedAt < 2_000) {
            return;
        }
        resumeCheckedAt = now;
        try {
            SourceProgress p = applier.progress(source);
            if (!p.halted()) {
                applier.forgetCatalog();
                reload();
                LOG.info("Source {}: resumed by an operator, applying from position {}{}", source, applied + 1,
                        skipped.isEmpty() ? "" : " and skipping positions " + skipped);
            }
        } catch (SQLException e) {
            LOG.warn("Source {}: cannot read whether it was resumed ({})", source, e.getMessage());
        }
    }

    private void halt(ApplyHaltException e) {
        halted = true;
        String reason = "halted at " + e.change().describe() + ": " + e.getMessage();
        parked.clear();
        pieces.clear();
        metrics.count("oneway_halts", source, 1);
        LOG.error("Source {} HALTED {}. Nothing after it is applied; other sources go on.", source, reason);
        try {
            applier.halt(source, reason, e.change().position());
        } catch (SQLException ex) {
            LOG.error("Source {}: could not record the halt in oneway.source_progress ({}); it stays halted in this process", source,
                    ex.getMessage());
        }
        publish();
    }

    private void load() throws SQLException {
        if (loaded) {
            return;
        }
        readProgress();
        loaded = true;
        if (halted) {
            LOG.error("Source {} is HALTED: {}", source, applier.progress(source).haltReason());
        } else {
            LOG.info("Source {}: applying from position {}{}", source, applied + 1,
                    staged > applied ? " (positions up to " + staged + " are staged)" : "");
        }
        publish();
    }

    /** After a resume or another applier's progress: the durable state is the truth; what is held in memory is let go. */
    private void reload() {
        try {
            readProgress();
        } catch (SQLException e) {
            LOG.warn("Source {}: cannot read its progress ({}); retrying", source, e.getMessage());
            loaded = false;
        }
        parked.removeThrough(received());
        pieces.removeThrough(received());
    }

    private void readProgress() throws SQLException {
        SourceProgress p = applier.progress(source);
        applied = p.appliedPosition();
        staged = p.stagedPosition();
        digest = p.digest();
        highestKnown = Math.max(highestKnown, received());
        incarnation = p.incarnation();
        halted = p.halted();
        skipped = applier.skipped(source, applied);
        forgetAck();
    }

    /** The durable progress was read again (and may be lower after an operator's reset): the next ack goes out whatever it says. */
    private synchronized void forgetAck() {
        ackedApplied = -1;
        ackedReceived = -1;
        acks.forget();
    }

    private <T> T published(T result) {
        publish();
        return result;
    }

    private void publish() {
        highestKnown = Math.max(highestKnown, announcedWhileBusy.get());
        lastHeard = Math.max(lastHeard, heardWhileBusy);
        status.set(new ReceiverStatus(applied, received(), highestKnown, sourceCaptured.get(), parked.count(), parked.bytes() + pieces.bytes(),
                Math.max(0, staged - applied), halted, lastHeard, appliedLoggedAt, appliedAt, applyFailingSince, applyError, incarnation,
                digest == null ? null : Fingerprint.text(digest), clock.millis(), gap.unanswered(), acks.unheard()));
    }
}
