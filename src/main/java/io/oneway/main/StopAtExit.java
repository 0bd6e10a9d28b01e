package io.oneway.main;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.Service;
import org.apache.camel.support.LifecycleStrategySupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the embedded servers when the JVM exits, however it exits: a running context stops them
 * itself after its routes (this waits for that, so that Ctrl-C never cuts the routes' database
 * connections), and a signal during start-up, before the context runs, would otherwise leave
 * them running as orphans holding their ports.
 */
final class StopAtExit extends LifecycleStrategySupport {

    private static final Logger LOG = LoggerFactory.getLogger(StopAtExit.class);
    private static final long CONTEXT_STOP_WAIT_SECONDS = 30;

    private final CamelContext context;
    private final List<Service> services = new ArrayList<>();
    private final CountDownLatch contextStopped = new CountDownLatch(1);

    StopAtExit(CamelContext context) {
        this.context = context;
        context.addLifecycleStrategy(this);
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "oneway-embedded-servers-stop"));
    }

    synchronized void add(Service service) {
        services.add(service);
    }

    @Override
    public void onContextStopped(CamelContext stopped) {
        contextStopped.countDown();
    }

    private void stopAll() {
        if (context.isStarting() || context.isStarted() || context.isStopping()) {
            try {
                contextStopped.await(CONTEXT_STOP_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<Service> reversed;
        synchronized (this) {
            reversed = new ArrayList<>(services);
        }
        for (int i = reversed.size() - 1; i >= 0; i--) {
            try {
                reversed.get(i).stop();
            } catch (RuntimeException e) {
                LOG.warn("Stopping an embedded server at exit failed: {}", e.getMessage());
            }
        }
    }
}
