package io.oneway.support;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.timer.TimerConsumer;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.Test;

/**
 * A side's monitor that stops checking is told like any stall, by the real route watch-monitors
 * (routes/notify-operators.camel.yaml) in a real CamelContext: one stalled notification with
 * state monitor-stopped and the cause, the health check DOWN meanwhile, and one recovered
 * notification once the monitor checks again. The monitor here is a timer route that is
 * stopped, as an operator stops a route in Hawtio; an Error ending a timer's thread
 * (PollWatchTest) leaves it the same: started, never running.
 */
class MonitorWatchTest {

    private static final long OVERDUE_MILLIS = 2_000; // far above a busy machine's delay of a 20 ms timer

    @Test
    void a_monitor_that_stopped_checking_is_notified_once_and_its_return_once() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        AtomicInteger checks = new AtomicInteger();
        StallWatch transfer = new StallWatch("transfer", OVERDUE_MILLIS);
        StallWatch apply = new StallWatch("apply", OVERDUE_MILLIS);
        try (CamelContext camel = new DefaultCamelContext()) {
            camel.getPropertiesComponent().addInitialProperty("oneway.notify.check-interval", "50");
            camel.getPropertiesComponent().addInitialProperty("oneway.notify.endpoint", "direct:operators");
            camel.getRegistry().bind("routeFailures", new RouteFailures(60_000));
            camel.getRegistry().bind("monitorWatch", new MonitorWatch(transfer, apply));
            transfer.setCamelContext(camel);
            apply.setCamelContext(camel);
            for (String file : List.of("error-handling", "notify-operators")) {
                PluginHelper.getRoutesLoader(camel).loadRoutes(ResourceHelper.resolveMandatoryResource(camel, "file:routes/" + file + ".camel.yaml"));
            }
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("timer:monitor?delay=0&period=20").routeId("monitor").process(e -> {
                        transfer.observe(List.of(), 0, 0);
                        checks.incrementAndGet();
                    });
                    from("direct:operators").routeId("operators").process(e -> notices.add(e.getMessage().getBody(String.class)));
                }
            });
            camel.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() > 0 && camel.getRouteController().getRouteStatus("watch-monitors").isStarted());
            assertEquals(HealthCheck.State.UP, transfer.call().getState());

            camel.getRouteController().stopRoute("monitor");
            await().atMost(Duration.ofSeconds(10)).until(() -> notices.stream().anyMatch(n -> n.contains("\"event\":\"stalled\"")));
            String stalled = notices.get(0);
            assertTrue(stalled.contains("\"side\":\"transfer\"") && stalled.contains("\"state\":\"monitor-stopped\"")
                    && stalled.contains("watch-link") && stalled.contains("no longer runs"), stalled);
            assertEquals(HealthCheck.State.DOWN, transfer.call().getState());
            assertEquals(HealthCheck.State.UP, apply.call().getState(), "the side whose monitor never ran");

            // told once however long it lasts: ten more checks of watch-monitors tell nothing more
            int told = notices.size();
            TimerConsumer watchMonitors = (TimerConsumer) camel.getRoute("watch-monitors").getConsumer();
            long runs = watchMonitors.getCounter();
            await().atMost(Duration.ofSeconds(10)).until(() -> watchMonitors.getCounter() >= runs + 10);
            assertEquals(told, notices.size(), String.join("\n", notices));

            camel.getRouteController().startRoute("monitor");
            await().atMost(Duration.ofSeconds(10)).until(() -> notices.stream().anyMatch(n -> n.contains("\"event\":\"recovered\"")));
            assertEquals(2, notices.size(), String.join("\n", notices));
            assertTrue(notices.get(1).contains("\"state\":\"monitor-stopped\"") && notices.get(1).contains("\"lasted\""), notices.get(1));
            assertEquals(HealthCheck.State.UP, transfer.call().getState());
        }
    }
}
