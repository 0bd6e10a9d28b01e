package io.oneway.apply;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.OnewayMetrics;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ControlMessage;

/**
 * The receiving state of one source: the applied position (durable, on the central database),
 * changes that arrived ahead of it (parked in memory), and the resend request and ack due.
 * All methods are serialised per source.
 */
final class SourceReceiver {

    private static final Logger LOG = LoggerFactory.getLogger(SourceReceiver.class);

    private record Parked(ChangeRecord change, Instant receivedAt) {
    }

    private final String source;
    private final ChangeApplier applier;
    private final OnewayMetrics metrics;
    private final ReceiverSettings settings;
    private final TreeMap<Long, Parked> parked = new TreeMap<>();
    private final Set<String> refusedIncarnations = new HashSet<>();

    private boolean loaded;
    private long applied;
    private String incarnation;
    private boolean halted;
    private String haltReason;
    private long highestKnown;
    private long gapMissing = -1;
    private long gapSince;
    private long requestedAt;
    private long ackedSent = -1;
    private long ackSentAt;
    private boolean applyFailing;
    private long reportedAt;
    private long resumeCheckedAt;
    private Set<Long> skipped = Set.of();
    private long appliedSinceReport;

    SourceReceiver(String source, ChangeApplier applier, OnewayMetrics metrics, ReceiverSettings settings) {
        this.source = source;
        this.applier = applier;
        this.metrics = metrics;
        this.settings = settings;
    }

    synchronized Optional<ControlMessage> onFrame(ChangeFrame frame) throws SQLException {
        load();
        if (!acceptIncarnation(frame.incarnation()) || halted) {
            return Optional.empty();
        }
        Instant now = Instant.now();
        long duplicates = 0;
        for (ChangeRecord c : frame.changes()) {
            highestKnown = Math.max(highestKnown, c.position());
            if (c.position() <= applied) {
                duplicates++;
            } else if (parked.size() < settings.maxParked() || c.position() < parked.lastKey()) {
                parked.putIfAbsent(c.position(), new Parked(c, now));
                if (parked.size() > settings.maxParked()) {
                    // the farthest ahead are asked for again later
                    parked.pollLastEntry();
                }
            }
        }
        if (duplicates > 0) {
            metrics.count("oneway_duplicate_changes", source, duplicates);
        }
        drain();
        return gapRequest(true);
    }

    synchronized Optional<ControlMessage> onHeartbeat(ControlMessage heartbeat) throws SQLException {
        load();
        if (!acceptIncarnation(heartbeat.incarnation()) || halted) {
            return Optional.empty();
        }
        highestKnown = Math.max(highestKnown, heartbeat.to());
        return gapRequest(false);
    }

    /** Periodic work: retry applying after a passing failure, re-request what is still missing, repeat the ack. */
    synchronized List<ControlMessage> tick() {
        List<ControlMessage> out = new ArrayList<>(2);
        if (halted) {
            checkResumed();
        }
        if (!loaded || halted) {
            return out;
        }
        drain();
        gapRequest(false).ifPresent(out::add);
        long now = System.currentTimeMillis();
        if (applied > 0 && incarnation != null && (applied != ackedSent || now - ackSentAt >= settings.ackRepeatMillis())) {
            ackedSent = applied;
            ackSentAt = now;
            out.add(ControlMessage.ack(source, incarnation, applied));
        }
        return out;
    }

    synchronized long applied() {
        return applied;
    }

    private void drain() {
        while (!halted && !parked.isEmpty() && parked.firstKey() == applied + 1) {
            List<ChangeRecord> run = nextRun();
            if (run.isEmpty()) {
                return;
            }
            try {
                applier.apply(source, run, parked.get(run.get(0).position()).receivedAt(), skipped);
            } catch (ApplyHaltException e) {
                halt(e);
                return;
            } catch (StaleProgressException e) {
                LOG.warn("Source {}: {}; continuing from there", source, e.getMessage());
                applied = e.applied();
                parked.headMap(applied, true).clear();
                continue;
            } catch (SQLException | RuntimeException e) {
                if (!applyFailing) {
                    LOG.warn("Source {}: applying positions {}..{} failed for now ({}); retrying", source, run.get(0).position(),
                            run.get(run.size() - 1).position(), e.getMessage());
                }
                applyFailing = true;
                return;
            }
            if (applyFailing) {
                LOG.info("Source {}: applying works again", source);
                applyFailing = false;
            }
            applied = run.get(run.size() - 1).position();
            parked.headMap(applied, true).clear();
            metrics.count("oneway_applied_changes", source, run.size());
            report(run.size());
        }
    }

    /** An operator-facing progress line at most every few seconds, not one per transaction. */
    private void report(int changes) {
        appliedSinceReport += changes;
        long now = System.currentTimeMillis();
        if (now - reportedAt >= 5_000) {
            LOG.info("Source {}: applied up to position {} ({} changes since the last report)", source, applied, appliedSinceReport);
            reportedAt = now;
            appliedSinceReport = 0;
        }
    }

    /** Consecutive parked changes from applied + 1, cut after the last complete transaction. */
    private List<ChangeRecord> nextRun() {
        List<ChangeRecord> run = new ArrayList<>();
        int complete = 0;
        long expected = applied + 1;
        for (Parked p : parked.tailMap(expected, true).values()) {
            if (p.change().position() != expected) {
                break;
            }
            run.add(p.change());
            expected++;
            if (p.change().txEnd()) {
                complete = run.size();
                if (complete >= settings.maxRun()) {
                    break;
                }
            }
        }
        return run.subList(0, complete);
    }

    /**
     * A resend request for the first missing range, if one is due: at once when a frame showed
     * the gap (a change beyond it arrived: the resequencer already waited for the missing one),
     * otherwise once it has lasted {@code resendAfter} without the applied position moving; and
     * again after each {@code resendAfter} while it lasts. A gap known only from a heartbeat is
     * usually frames still queued or being resequenced (a backlog drains behind the heartbeat
     * that announced it), so it waits.
     */
    private Optional<ControlMessage> gapRequest(boolean seenInFrame) {
        if (halted || incarnation == null) {
            return Optional.empty();
        }
        long missing = applied + 1;
        while (parked.containsKey(missing)) {
            missing++;
        }
        if (missing > highestKnown) {
            gapMissing = -1;
            return Optional.empty();
        }
        Long nextParked = parked.ceilingKey(missing);
        long to = nextParked != null ? nextParked - 1 : highestKnown;
        long now = System.currentTimeMillis();
        if (missing != gapMissing) {
            gapMissing = missing;
            gapSince = now;
            requestedAt = 0;
        }
        boolean due = requestedAt == 0 ? seenInFrame && nextParked != null || now - gapSince >= settings.resendAfterMillis()
                : now - requestedAt >= settings.resendAfterMillis();
        if (!due) {
            return Optional.empty();
        }
        requestedAt = now;
        metrics.count("oneway_resend_requests", source, 1);
        LOG.debug("Source {}: requesting positions {}..{}", source, missing, to);
        return Optional.of(ControlMessage.resend(source, incarnation, missing, to));
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
        metrics.count("oneway_refused_messages", source, "incarnation");
        if (refusedIncarnations.add(offered)) {
            LOG.error("Source {}: refused messages of incarnation {}; this central database replicates its incarnation {}. "
                    + "The remote database was re-installed or restored from a backup: re-onboard it.", source, offered, incarnation);
        }
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
                skipped = applier.skipped(source, p.appliedPosition());
                applied = p.appliedPosition();
                halted = false;
                haltReason = null;
                gapMissing = -1;
                LOG.info("Source {}: resumed by an operator, applying from position {}{}", source, applied + 1,
                        skipped.isEmpty() ? "" : " and skipping positions " + skipped);
            }
        } catch (SQLException e) {
            LOG.warn("Source {}: cannot read whether it was resumed ({})", source, e.getMessage());
        }
    }

    private void halt(ApplyHaltException e) {
        halted = true;
        haltReason = "halted at " + e.change().describe() + ": " + e.getMessage();
        parked.clear();
        metrics.count("oneway_halts", source, "apply");
        LOG.error("Source {} HALTED {}. Nothing after it is applied; other sources go on.", source, haltReason);
        try {
            applier.halt(source, haltReason, e.change().position());
        } catch (SQLException ex) {
            LOG.error("Source {}: could not record the halt in oneway.source_progress ({}); it stays halted in this process", source,
                    ex.getMessage());
        }
    }

    private void load() throws SQLException {
        if (loaded) {
            return;
        }
        SourceProgress p = applier.progress(source);
        applied = p.appliedPosition();
        highestKnown = applied;
        incarnation = p.incarnation();
        halted = p.halted();
        haltReason = p.haltReason();
        skipped = applier.skipped(source, applied);
        loaded = true;
        metrics.gauge("oneway_applied_position", source, this::applied);
        if (halted) {
            LOG.error("Source {} is HALTED: {}", source, haltReason);
        } else {
            LOG.info("Source {}: applying from position {}", source, applied + 1);
        }
    }
}
