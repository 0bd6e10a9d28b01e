package io.oneway.hawtio;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.HandlerCollection;
import org.slf4j.Logger;

import io.hawt.embedded.Main;

/**
 * Runs the Hawtio web console on localhost, already connected to a running Oneway: the page
 * /oneway (same origin as Hawtio) saves a connection to the replicator's Jolokia endpoint and
 * opens Hawtio's Camel routes with it, so nobody fills in a connection form.
 */
public final class HawtioConsole extends Main {

    private final String connection;

    private HawtioConsole(String connection) {
        this.connection = connection;
    }

    public static void main(String[] args) {
        int port = Integer.getInteger("hawtio.port", 8090);
        String jolokiaHost = System.getProperty("oneway.management.host", "localhost");
        int jolokiaPort = Integer.getInteger("oneway.management.port", 9876);
        String connection = "{\"name\":\"oneway\",\"scheme\":\"http\",\"host\":\"" + jolokiaHost + "\",\"port\":" + jolokiaPort
                + ",\"path\":\"/observe/jolokia\"}";
        HawtioConsole hawtio = new HawtioConsole(connection);
        hawtio.setWar(System.getProperty("hawtio.war"));
        hawtio.setHost("127.0.0.1");
        hawtio.setPort(port);
        hawtio.setContextPath("/hawtio");
        hawtio.setOpenUrl(false);
        hawtio.setJointServerThread(true);
        System.out.printf("%nHawtio, connected to Oneway on %s:%d: open http://localhost:%d/oneway%n%n", jolokiaHost, jolokiaPort, port);
        try {
            hawtio.run(true);
        } catch (Exception e) {
            System.err.println("Hawtio did not start: " + e.getMessage());
            System.exit(1);
        }
    }

    @Override
    protected void findThirdPartyPlugins(Logger log, HandlerCollection handlers, File tempDir) {
        super.findThirdPartyPlugins(log, handlers, tempDir);
        ContextHandler page = new ContextHandler("/oneway");
        page.setHandler(new AbstractHandler() {
            @Override
            public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setContentType("text/html;charset=utf-8");
                response.getOutputStream().write(("<!doctype html><title>Oneway in Hawtio</title><script>"
                        + "const saved = JSON.parse(localStorage.getItem('connect.connections') || '{}');"
                        + "saved['oneway'] = " + connection + ";"
                        + "localStorage.setItem('connect.connections', JSON.stringify(saved));"
                        + "location.replace('/hawtio/camel/routes?con=oneway&nid=org.apache.camel-folder-CamelContexts-folder-oneway-folder-routes-folder');"
                        + "</script>").getBytes(StandardCharsets.UTF_8));
                base.setHandled(true);
            }
        });
        handlers.addHandler(page);
    }
}
