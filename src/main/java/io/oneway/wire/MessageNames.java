package io.oneway.wire;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Names that sort in the order they were made, also across restarts (the clock's millisecond
 * first, then a counter), and never repeat within one process: {@code 1764530000123-000000042.msg}.
 */
final class MessageNames {

    private final AtomicLong counter = new AtomicLong();

    String next() {
        return String.format("%013d-%09d.msg", System.currentTimeMillis(), counter.incrementAndGet() % 1_000_000_000L);
    }
}
