package io.oneway.support;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.apache.camel.CamelContext;
import org.apache.camel.Component;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultComponent;
import org.apache.camel.support.ScheduledPollConsumer;
import org.apache.camel.support.ScheduledPollEndpoint;
import org.junit.jupiter.api.Test;

/**
 * A route whose scheduled consumer let an Error escape its poll, and a timer route whose step
 * threw one, in a real CamelContext: Camel never runs either again though the route stays
 * started, and PollWatch names it once the quiet time passed; while it runs, or once it is
 * stopped on purpose, it is not named. A route whose every poll fails (PollFailures) is named with
 * its error once it has failed for the quiet time and three of its intervals, and no longer once a
 * poll succeeds; one whose poll does not return, and a timer route whose run does not, are named
 * stuck, with where the thread waits, until they return.
 */
class PollWatchTest {

    /**
     * An endpoint whose consumer polls every {@code delay} ms and throws from its poll once told to:
     * an Error, as the driver's out-of-memory did, or an exception, as a database refusing the query.
     */
    private static final class FailingPolls extends ScheduledPollEndpoint {
        private final AtomicBoolean fail;
        private final Supplier<Throwable> failure;

        FailingPolls(Component component, AtomicBoolean fail) {
            this(component, fail, 10, () -> new StackOverflowError("thrown by the test from a poll"));
        }

        FailingPolls(Component component, AtomicBoolean fail, long delay, Supplier<Throwable> failure) {
            super("failing-polls:every-" + delay, component);
            this.fail = fail;
            this.failure = failure;
            // on the endpoint: configureConsumer sets the consumer's from it
            setDelay(delay);
            setInitialDelay(0);
        }

        @Override
        public Producer createProducer() {
            throw new UnsupportedOperationException("a consumer only");
        }

        @Override
        public Consumer createConsumer(Processor processor) throws Exception {
            ScheduledPollConsumer consumer = new ScheduledPollConsumer(this, processor) {
                @Override
                protected int poll() throws Exception {
                    if (fail.get()) {
                        Throwable t = failure.get();
                        if (t instanceof Error e) {
                            throw e;
                        }
                        throw (Exception) t;
                    }
                    return 0;
                }
            };
            configureConsumer(consumer);
            return consumer;
        }
    }

    @Test
    void a_route_whose_poll_let_an_error_escape_is_named_and_a_polling_or_stopped_one_is_not() throws Exception {
        AtomicBoolean fail = new AtomicBoolean();
        try (CamelContext camel = new DefaultCamelContext()) {
            DefaultComponent component = new DefaultComponent(camel) {
                @Override
                protected FailingPolls createEndpoint(String uri, String remaining, java.util.Map<String, Object> parameters) {
                    return new FailingPolls(this, fail);
                }
            };
            FailingPolls endpoint = new FailingPolls(component, fail);
            start(camel, endpoint, "polls");
            PollWatch watch = new PollWatch(300);
            long start = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() - start > 600 && watch.problem(camel, System.currentTimeMillis()) == null);
            assertNull(watch.problem(camel, System.currentTimeMillis()), "a route that polls");

            fail.set(true);
            await().atMost(Duration.ofSeconds(10)).until(() -> watch.problem(camel, System.currentTimeMillis()) != null);
            String problem = watch.problem(camel, System.currentTimeMillis());
            assertTrue(problem.contains("polls (none for") && problem.contains("restart the replicator"), problem);
            assertTrue(camel.getRouteController().getRouteStatus("polls").isStarted(), "Camel still shows the route as started");

            camel.getRouteController().stopRoute("polls");
            assertNull(watch.problem(camel, System.currentTimeMillis() + 60_000), "a route stopped on purpose");
        }
    }

    @Test
    void a_route_whose_every_poll_fails_is_named_with_its_error_after_three_intervals_and_not_once_a_poll_succeeds() throws Exception {
        AtomicBoolean fail = new AtomicBoolean(true);
        PollFailures failures = new PollFailures();
        try (CamelContext camel = new DefaultCamelContext()) {
            DefaultComponent component = madeByTheTest(camel);
            FailingPolls often = new FailingPolls(component, fail, 10, () -> new IllegalStateException("refused by the test\nits detail"));
            FailingPolls seldom = new FailingPolls(component, fail, 60_000, () -> new IllegalStateException("refused once by the test"));
            often.setPollStrategy(failures);
            seldom.setPollStrategy(failures);
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(often).routeId("often").to("log:io.oneway.test?level=OFF");
                    from(seldom).routeId("seldom").to("log:io.oneway.test?level=OFF");
                }
            });
            camel.start();
            PollWatch watch = new PollWatch(300);
            await().atMost(Duration.ofSeconds(10)).until(() -> failures.failing("often") != null && failures.failing("often").polls() > 30
                    && failures.failing("seldom") != null);
            long now = System.currentTimeMillis();
            String failing = watch.failing(camel, now);
            assertTrue(failing.contains("often (every poll for") && failing.contains("polls: refused by the test)"), failing);
            // a route polling every minute failed once: not a stall until three of its intervals have failed
            assertTrue(!failing.contains("seldom"), failing);
            assertTrue(watch.failing(camel, failures.failing("seldom").sinceMillis() + 180_000).contains("seldom (every poll for 180 s, 1 polls"));
            assertNull(watch.problem(camel, now), "the routes run");

            fail.set(false);
            await().atMost(Duration.ofSeconds(10)).until(() -> failures.failing("often") == null);
            String after = watch.failing(camel, failures.failing("seldom").sinceMillis() + 180_000);
            assertTrue(after.contains("seldom") && !after.contains("often"), "a poll of often succeeded: " + after);
        }
    }

    @Test
    void a_route_whose_poll_does_not_return_is_named_stuck_with_where_its_thread_waits_until_it_returns() throws Exception {
        AtomicBoolean hold = new AtomicBoolean(true);
        CountDownLatch released = new CountDownLatch(1);
        PollFailures failures = new PollFailures();
        try (CamelContext camel = new DefaultCamelContext()) {
            DefaultComponent component = madeByTheTest(camel);
            // the poll waits until the test releases it, as a statement on a connection whose database went away
            FailingPolls held = new FailingPolls(component, hold, 10, () -> {
                try {
                    released.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new IllegalStateException("released by the test");
            });
            held.setPollStrategy(failures);
            start(camel, held, "held");
            PollWatch watch = new PollWatch(300);
            await().atMost(Duration.ofSeconds(10)).until(() -> failures.polling("held") != null);
            long since = failures.polling("held").sinceMillis();
            assertNull(watch.stuck(camel, since + 200), "a poll under the quiet time");
            String stuck = watch.stuck(camel, since + 1_000);
            assertTrue(stuck.contains("held (in one poll for 1 s, at ") && stuck.contains("does not return"), stuck);
            assertNull(watch.problem(camel, since + 60_000), "a route in the middle of a run is not one that no longer runs");
            assertNull(watch.failing(camel, since + 60_000), "nor one whose polls fail");

            hold.set(false);
            released.countDown();
            // the held poll ended (its release failed it) and the next ones return at once
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                PollFailures.Poll poll = failures.polling("held");
                return (poll == null || poll.sinceMillis() > since) && watch.stuck(camel, System.currentTimeMillis()) == null;
            });
        }
    }

    @Test
    void a_timer_route_whose_run_does_not_return_is_named_stuck_with_where_its_thread_waits_until_it_returns() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        try (CamelContext camel = new DefaultCamelContext()) {
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    // one run waits until the test releases it, as a step whose call does not return
                    from("timer:held-run?period=10").routeId("held-run").process(exchange -> released.await(30, TimeUnit.SECONDS));
                }
            });
            camel.start();
            PollWatch watch = new PollWatch(300);
            // seen at successive checks in the same run: named once the quiet time has passed between them
            await().pollInterval(Duration.ofMillis(100)).atMost(Duration.ofSeconds(10))
                    .until(() -> watch.stuck(camel, System.currentTimeMillis()) != null);
            String stuck = watch.stuck(camel, System.currentTimeMillis());
            assertTrue(stuck.contains("held-run (in one run for at least") && stuck.contains(", at ") && stuck.contains("does not return"),
                    stuck);
            assertNull(watch.problem(camel, System.currentTimeMillis() + 60_000), "a route in the middle of a run is not one that no longer runs");

            released.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> watch.stuck(camel, System.currentTimeMillis()) == null);
        }
    }

    /** Starts the context with one route from the endpoint. */
    private static void start(CamelContext camel, FailingPolls endpoint, String routeId) throws Exception {
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(endpoint).routeId(routeId).to("log:io.oneway.test?level=OFF");
            }
        });
        camel.start();
    }

    /** A component for endpoints the test makes itself. */
    private static DefaultComponent madeByTheTest(CamelContext camel) {
        return new DefaultComponent(camel) {
            @Override
            protected FailingPolls createEndpoint(String uri, String remaining, java.util.Map<String, Object> parameters) {
                throw new UnsupportedOperationException("endpoints are made by the test");
            }
        };
    }

    @Test
    void a_timer_route_whose_step_threw_an_error_never_fires_again_and_is_named() throws Exception {
        AtomicBoolean fail = new AtomicBoolean();
        AtomicInteger fired = new AtomicInteger();
        try (CamelContext camel = new DefaultCamelContext()) {
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("timer:ticks?period=10").routeId("ticks").process(exchange -> {
                        fired.incrementAndGet();
                        if (fail.get()) {
                            throw new StackOverflowError("thrown by the test from a timer route's step");
                        }
                    });
                }
            });
            // the Error leaves its exchange in flight for good: a graceful stop would wait its 45 s for it
            camel.getShutdownStrategy().setTimeout(1);
            camel.start();
            PollWatch watch = new PollWatch(300);
            long start = System.currentTimeMillis();
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() - start > 600 && watch.problem(camel, System.currentTimeMillis()) == null);
            assertNull(watch.problem(camel, System.currentTimeMillis()), "a timer route that fires");

            fail.set(true);
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(() -> watch.problem(camel, System.currentTimeMillis()) != null);
            int firedThen = fired.get();
            String problem = watch.problem(camel, System.currentTimeMillis());
            assertTrue(problem.contains("ticks (none for") && problem.contains("restart the replicator"), problem);
            assertTrue(camel.getRouteController().getRouteStatus("ticks").isStarted(), "Camel still shows the route as started");
            // the Error ended the java.util.Timer's thread (Awaitility is told to leave it uncaught):
            // 30 periods later the step has not run again
            long named = System.currentTimeMillis();
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() - named > 300);
            assertEquals(firedThen, fired.get(), "the timer fired again");
        }
    }
}
