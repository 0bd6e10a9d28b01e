package io.oneway.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Watches the monitors: each side's monitor tells every other stall, so one whose route no
 * longer runs (a timer's thread ended by an Error, a route stopped in Hawtio) would leave the
 * next stall untold. Run by route watch-monitors, on a timer thread of its own.
 */
public final class MonitorWatch {

    private final List<StallWatch> sides;

    public MonitorWatch(StallWatch transfer, StallWatch apply) {
        this.sides = List.of(transfer, apply);
    }

    /** @return the notifications due: a side's monitor-stopped begun or ended */
    public List<Map<String, Object>> check() {
        List<Map<String, Object>> notices = new ArrayList<>();
        sides.forEach(s -> notices.addAll(s.overdueNotices()));
        return notices;
    }
}
