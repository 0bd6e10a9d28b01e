package io.oneway.support;

import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * A health check made as a bean of application.properties, which puts itself in the context's
 * health-check registry when the context is given to it (beans are not registered by themselves).
 */
public abstract class RegisteredHealthCheck extends AbstractHealthCheck {

    protected RegisteredHealthCheck(String group, String id) {
        super(group, id);
    }

    @Override
    public void setCamelContext(CamelContext camelContext) {
        if (getCamelContext() == camelContext) {
            // the registry hands the context back when we register
            return;
        }
        super.setCamelContext(camelContext);
        HealthCheckRegistry registry = HealthCheckRegistry.get(camelContext);
        if (registry != null) {
            registry.register(this);
        }
    }
}
