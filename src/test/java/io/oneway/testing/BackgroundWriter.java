package io.oneway.testing;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** A {@link ShopWriter} writing on its own thread, in rounds of a given size, until stopped. */
public final class BackgroundWriter implements AutoCloseable {

    private final AtomicBoolean writing = new AtomicBoolean(true);
    private final ExecutorService pool = Executors.newSingleThreadExecutor();
    private final Future<Integer> writes;

    public BackgroundWriter(ShopWriter writer, int changesPerRound) {
        writes = pool.submit(() -> {
            int n = 0;
            while (writing.get()) {
                n += writer.write(changesPerRound);
            }
            return n;
        });
    }

    /** Stops after the round in progress. @return the changes committed */
    public int stop() throws Exception {
        writing.set(false);
        return writes.get(1, TimeUnit.MINUTES);
    }

    @Override
    public void close() {
        writing.set(false);
        pool.shutdownNow();
    }
}
