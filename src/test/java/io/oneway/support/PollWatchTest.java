package io.oneway.support;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

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
 * A route whose scheduled consumer let an Error escape its poll, in a real CamelContext: Camel
 * never polls it again though the route stays started, and PollWatch names it once the quiet
 * time passed; while it polls, or once it is stopped on purpose, it is not named.
 */
class PollWatchTest {

    /** An endpoint whose consumer polls every 10 ms and throws an Error from its poll once told to, as the driver's out-of-memory did. */
    private static final class FailingPolls extends ScheduledPollEndpoint {
        private final AtomicBoolean fail;

        FailingPolls(Component component, AtomicBoolean fail) {
            super("failing-polls:test", component);
            this.fail = fail;
        }

        @Override
        public Producer createProducer() {
            throw new UnsupportedOperationException("a consumer only");
        }

        @Override
        public Consumer createConsumer(Processor processor) throws Exception {
            ScheduledPollConsumer consumer = new ScheduledPollConsumer(this, processor) {
                @Override
                protected int poll() {
                    if (fail.get()) {
                        throw new StackOverflowError("thrown by the test from a poll");
                    }
                    return 0;
                }
            };
            consumer.setInitialDelay(0);
            consumer.setDelay(10);
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
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(endpoint).routeId("polls").to("log:io.oneway.test?level=OFF");
                }
            });
            camel.start();
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
}
