package io.oneway.support;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Falling behind judged by how late changes are handled, where the backlog cannot be counted: for
 * as long as oneway.notify.behind-after, every change handled was handled more than that long
 * after its capture, and the delay has not come down. The central side steps (it knows only the
 * frames it has read; heartbeats queue behind them); the remote's WAL reader records from the WAL
 * (what it has not read yet is WAL, not changes; FallingBehind counts the backlog of what it has
 * recorded). A catch-up brings the delay down and is not this; the span is counted again after
 * another stall, and it is judged only when something was handled.
 */
public final class LateChanges {

    /** A check at which the handled count had moved: how late its newest change was. */
    private record Step(long at, long done, double delaySeconds) {
    }

    private final long afterMillis;
    private final Deque<Step> steps = new ArrayDeque<>();
    private long lastDone = -1;
    private String lastJudgment;
    private long lastMovedAt = -1;
    private String verdict;
    private final HeldCause held;
    private final String handled;

    /** @param handled what happens to changes, as the cause says it: "applied", "recorded from the WAL" */
    public LateChanges(long afterMillis, String handled) {
        this.afterMillis = FallingBehind.span(afterMillis);
        this.held = new HeldCause(afterMillis);
        this.handled = handled;
    }

    /** Forgets the span: another stall is in force, which says why changes wait. */
    public void reset() {
        steps.clear();
        lastDone = -1;
        lastJudgment = null;
        lastMovedAt = -1;
        verdict = null;
        held.reset();
    }

    /**
     * Judged at each check where {@code done} moved; between those the last judgment stands (a
     * slow apply run moves it seldom). Told, it holds until it has not been found for half the span
     * (HeldCause), or nothing has been handled for half the span while nothing is known to wait:
     * the source is quiet, or something else stops it, which its own stall tells. (Whether it is
     * caught up neither user can tell: between two frames the central side has applied all it has
     * read, and the WAL reader, between two reads, all the slot has sent.)
     *
     * @param done how far changes are handled: a position or a count, never going back
     * @param loggedAtMillis when the newest change handled was captured (0: not known)
     * @param waiting changes are known to wait to be handled (the central side: read, and being
     *                applied in one long run): not quiet
     * @return why the source falls behind, or null
     */
    public String observe(long now, long done, long loggedAtMillis, boolean waiting) {
        boolean moved = lastDone >= 0 && done > lastDone;
        lastDone = done;
        if (moved && loggedAtMillis != 0) {
            lastMovedAt = now;
            steps.addLast(new Step(now, done, (now - loggedAtMillis) / 1000.0));
            // the newest step at least the span old is the one compared with; older ones go
            while (steps.size() > 1 && now - secondOldest().at() >= afterMillis) {
                steps.removeFirst();
            }
            lastJudgment = judge(now);
            verdict = held.update(now, lastJudgment, false);
        } else {
            boolean quiet = (lastMovedAt < 0 || now - lastMovedAt >= afterMillis / 2) && !waiting;
            if (lastJudgment == null || quiet) {
                verdict = held.update(now, null, quiet);
            }
        }
        return verdict;
    }

    private String judge(long now) {
        Step then = steps.peekFirst();
        Step last = steps.peekLast();
        long span = now - then.at();
        if (span < afterMillis || last.delaySeconds() < then.delaySeconds()
                || steps.stream().anyMatch(step -> step.delaySeconds() * 1000 < afterMillis)) {
            return null;
        }
        double seconds = span / 1000.0;
        return String.format(Locale.ROOT, "changes are %s %.0f s after their capture (%.0f s, %.0f s ago), and every change %s in between "
                + "more than %.0f s after it, at %.0f changes/s", handled, last.delaySeconds(), then.delaySeconds(), seconds, handled,
                afterMillis / 1000.0, (last.done() - then.done()) / seconds);
    }

    private Step secondOldest() {
        return steps.stream().skip(1).findFirst().orElseThrow();
    }
}
