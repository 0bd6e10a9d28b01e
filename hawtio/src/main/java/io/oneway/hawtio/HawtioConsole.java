package io.oneway.hawtio;

import io.hawt.embedded.Main;

/** Runs the Hawtio web console on localhost, for watching a running Oneway through its Jolokia endpoint. */
public final class HawtioConsole {

    private HawtioConsole() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.getInteger("hawtio.port", 8090);
        Main hawtio = new Main();
        hawtio.setWar(System.getProperty("hawtio.war"));
        hawtio.setHost("127.0.0.1");
        hawtio.setPort(port);
        hawtio.setContextPath("/hawtio");
        hawtio.setOpenUrl(false);
        hawtio.setJointServerThread(true);
        System.out.printf("%nHawtio: open http://localhost:%d/hawtio, choose Connect, and add%n"
                + "  host localhost, port 9876, path /observe/jolokia (Oneway's management endpoint).%n%n", port);
        hawtio.run(true);
    }
}
