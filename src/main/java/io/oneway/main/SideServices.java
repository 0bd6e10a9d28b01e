package io.oneway.main;

import java.util.List;

import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.Service;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.MainListenerSupport;
import org.apache.camel.model.Model;
import org.apache.camel.model.RouteDefinition;

import com.zaxxer.hikari.HikariDataSource;

import io.oneway.apply.SourcesMonitor;
import io.oneway.capture.WalReader;
import io.oneway.ops.HaltWatch;
import io.oneway.send.TransferMonitor;

/**
 * What each side needs around its routes: its meters registered as soon as it runs (so every
 * one is exported from the start), its templated routes showing the endpoints they read, and
 * its connection pools and the WAL reader's replication connection closed after the routes stop and before the embedded servers do (so a
 * clean stop prints no errors). Which side runs is told by
 * the routes loaded: send-changes for a remote, receive-changes-SOURCE for the central side.
 */
final class SideServices extends MainListenerSupport {

    @Override
    public void afterConfigure(BaseMainSupport main) {
        CamelContext context = main.getCamelContext();
        try {
            context.addStartupListener((ctx, alreadyStarted) -> {
                registerMeters(ctx);
                showEndpoints(ctx);
            });
        } catch (Exception e) {
            throw new IllegalStateException("cannot register the meters for start-up", e);
        }
        List<HikariDataSource> pools = List.copyOf(context.getRegistry().findByType(HikariDataSource.class));
        List<WalReader> walReaders = List.copyOf(context.getRegistry().findByType(WalReader.class));
        try {
            // services stop in the reverse order they were added: these after the routes, before the embedded servers
            context.addService(new Service() {
                @Override
                public void start() {
                    // the pools connect lazily
                }

                @Override
                public void stop() {
                    // the slot is released for the next start (a replicator started again in this JVM, in tests)
                    walReaders.forEach(WalReader::close);
                    pools.forEach(HikariDataSource::close);
                }
            }, true, false);
        } catch (Exception e) {
            throw new IllegalStateException("cannot register the connection pools for shutdown", e);
        }
    }

    /**
     * A route made from a template keeps its {@code from} as the template wrote it
     * ({{endpoint}}); the route's own endpoint is put in its place, so that route dumps and
     * Hawtio's diagrams show the queue it reads.
     */
    private static void showEndpoints(CamelContext context) {
        Model model = context.getCamelContextExtension().getContextPlugin(Model.class);
        for (Route route : context.getRoutes()) {
            RouteDefinition definition = model.getRouteDefinition(route.getRouteId());
            if (definition != null && definition.getInput() != null && definition.getInput().getUri().contains("{{")) {
                definition.getInput().setUri(route.getEndpoint().getEndpointUri());
            }
        }
    }

    private static void registerMeters(CamelContext context) {
        if (context.getRoute("send-changes") != null) {
            bean(context, "transferMonitor", TransferMonitor.class).registerMeters();
            bean(context, "transferWatch", HaltWatch.class).registerMeters();
        }
        List<String> sources = context.getRoutes().stream().map(Route::getRouteId).filter(id -> id.startsWith("receive-changes-"))
                .map(id -> id.substring("receive-changes-".length())).toList();
        if (!sources.isEmpty()) {
            bean(context, "sourcesMonitor", SourcesMonitor.class).registerMeters(sources);
            bean(context, "applyWatch", HaltWatch.class).registerMeters();
        }
    }

    private static <T> T bean(CamelContext context, String name, Class<T> type) {
        T bean = context.getRegistry().lookupByNameAndType(name, type);
        if (bean == null) {
            throw new IllegalStateException("bean " + name + " is missing from application.properties");
        }
        return bean;
    }
}
