package io.oneway.support;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress of capture or apply for operators: at most one line per interval, with counts and the
 * rate since the last line, written when work happens (a quiet replicator writes nothing).
 */
public final class ProgressLog {

    private final Logger log;
    private final String what;
    private final long intervalMillis;
    private long since = System.currentTimeMillis();
    private long changes;
    private long transactions;

    /** @param what what the line begins with, e.g. "Captured" or "Source branch1: applied" */
    public ProgressLog(String logName, String what, long intervalMillis) {
        this.log = LoggerFactory.getLogger(logName);
        this.what = what;
        this.intervalMillis = intervalMillis;
    }

    /** Work done: changes and transactions, up to a position. */
    public synchronized void add(long changeCount, long transactionCount, long position) {
        changes += changeCount;
        transactions += transactionCount;
        long now = System.currentTimeMillis();
        if (now - since >= intervalMillis) {
            double seconds = (now - since) / 1000.0;
            log.info("{} {} changes in {} transactions in the last {} s ({} changes/s), up to position {}", what, changes, transactions,
                    Math.round(seconds), Math.round(changes / seconds), position);
            since = now;
            changes = 0;
            transactions = 0;
        }
    }
}
