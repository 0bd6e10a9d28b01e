package io.oneway.support;

import java.util.Set;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;

/** Oneway's own meters (prefix {@code oneway_}), published with Camel's on /observe/metrics. */
public final class OnewayMetrics implements CamelContextAware {

    private CamelContext camelContext;
    private volatile MeterRegistry registry;

    @Override
    public void setCamelContext(CamelContext camelContext) {
        this.camelContext = camelContext;
    }

    @Override
    public CamelContext getCamelContext() {
        return camelContext;
    }

    public void count(String name, String source, String reason) {
        Counter.builder(name).tag("source", source == null ? "unknown" : source).tag("reason", reason).register(registry()).increment();
    }

    public void count(String name, String source, long amount) {
        Counter.builder(name).tag("source", source).register(registry()).increment(amount);
    }

    public void gauge(String name, String source, Supplier<Number> value) {
        Gauge.builder(name, value).tag("source", source).register(registry());
    }

    private MeterRegistry registry() {
        MeterRegistry r = registry;
        if (r == null) {
            synchronized (this) {
                if (registry == null) {
                    Set<MeterRegistry> found = camelContext == null ? Set.of() : camelContext.getRegistry().findByType(MeterRegistry.class);
                    registry = found.isEmpty() ? new SimpleMeterRegistry() : found.iterator().next();
                }
                r = registry;
            }
        }
        return r;
    }
}
