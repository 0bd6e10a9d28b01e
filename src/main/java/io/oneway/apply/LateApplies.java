package io.oneway.apply;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

import io.oneway.support.FallingBehind;
import io.oneway.support.HeldCause;

/**
 * The central side's view of a source falling behind (the remote's is FallingBehind): for as
 * long as oneway.notify.behind-after, every change this side applied was applied more than that
 * long after its capture, and the delay has not come down. The central side cannot count the
 * backlog itself (it knows only the frames it has read; heartbeats queue behind them), but how late
 * each apply is, it sees. A catch-up brings the delay down and is not this; the span is counted
 * again after another stall, and it is judged only when something was applied.
 */
final class LateApplies {

    /** A check at which the applied position had moved: how late its newest change was. */
    private record Apply(long at, long applied, double delaySeconds) {
    }

    private final long afterMillis;
    private final Deque<Apply> applies = new ArrayDeque<>();
    private long lastApplied = -1;
    private String lastJudgment;
    private long lastMovedAt = -1;
    private String verdict;
    private final HeldCause held;

    LateApplies(long afterMillis) {
        this.afterMillis = FallingBehind.span(afterMillis);
        this.held = new HeldCause(afterMillis);
    }

    /** Forgets the span: another stall is in force, which says why changes wait. */
    void reset() {
        applies.clear();
        lastApplied = -1;
        lastJudgment = null;
        lastMovedAt = -1;
        verdict = null;
        held.reset();
    }

    /**
     * Judged at each check where the applied position moved; between those the last judgment
     * stands (a slow apply moves it seldom). Told, it holds until it has not been found for half
     * the span (HeldCause), or nothing has been applied for half the span: the source is quiet,
     * or something else stops the apply, which its own stall tells. (Whether a source is caught up
     * this side cannot tell: between two frames it has applied all it has read.)
     *
     * @param applied the source's applied position now
     * @param appliedLoggedAtMillis when the change at it was captured (0: not known)
     * @return why the source falls behind, or null
     */
    String observe(long now, long applied, long appliedLoggedAtMillis) {
        boolean moved = lastApplied >= 0 && applied > lastApplied;
        lastApplied = applied;
        if (moved && appliedLoggedAtMillis != 0) {
            lastMovedAt = now;
            applies.addLast(new Apply(now, applied, (now - appliedLoggedAtMillis) / 1000.0));
            // the newest apply at least the span old is the one compared with; older ones go
            while (applies.size() > 1 && now - secondOldest().at() >= afterMillis) {
                applies.removeFirst();
            }
            lastJudgment = judge(now);
            verdict = held.update(now, lastJudgment, false);
        } else {
            boolean quiet = lastMovedAt < 0 || now - lastMovedAt >= afterMillis / 2;
            if (lastJudgment == null || quiet) {
                verdict = held.update(now, null, quiet);
            }
        }
        return verdict;
    }

    private String judge(long now) {
        Apply then = applies.peekFirst();
        Apply last = applies.peekLast();
        long span = now - then.at();
        if (span < afterMillis || last.delaySeconds() < then.delaySeconds()
                || applies.stream().anyMatch(a -> a.delaySeconds() * 1000 < afterMillis)) {
            return null;
        }
        double seconds = span / 1000.0;
        return String.format(Locale.ROOT, "changes are applied %.0f s after their capture (%.0f s, %.0f s ago), and every change applied in between "
                + "more than %.0f s after it, at %.0f changes/s", last.delaySeconds(), then.delaySeconds(), seconds, afterMillis / 1000.0,
                (last.applied() - then.applied()) / seconds);
    }

    private Apply secondOldest() {
        return applies.stream().skip(1).findFirst().orElseThrow();
    }
}
