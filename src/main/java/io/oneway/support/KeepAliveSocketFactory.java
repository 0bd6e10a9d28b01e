package io.oneway.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketOption;

import javax.net.SocketFactory;

import jdk.net.ExtendedSocketOptions;

/**
 * The sockets of the replicator's database connections (PostgreSQL's JDBC driver makes them with
 * {@code socketFactory} set to this class, {@code socketFactoryArg} to the idle seconds, and turns
 * the probes on with {@code tcpKeepAlive}): TCP keepalive probes after that many idle seconds,
 * three of them a third of that apart. A statement waiting on a connection whose database went
 * away without closing it (a host powered off, a firewall or NAT that forgot the connection) would
 * otherwise wait for ever: the driver has no read timeout by default, and Linux first probes an
 * idle connection after two hours. A statement that runs long on a live connection goes on: the
 * database host's kernel answers the probes, so no statement is cut short by a timeout.
 */
public final class KeepAliveSocketFactory extends SocketFactory {

    private static final int PROBES = 3;
    private final int idleSeconds;

    /** @param idleSeconds seconds without traffic before the first probe (oneway.database.keepalive-idle) */
    public KeepAliveSocketFactory(String idleSeconds) {
        int idle;
        try {
            idle = Integer.parseInt(idleSeconds.trim());
        } catch (NumberFormatException | NullPointerException e) {
            idle = 0;
        }
        if (idle < 1) {
            throw new IllegalArgumentException("oneway.database.keepalive-idle must be a whole number of seconds, at least 1 (it is '"
                    + idleSeconds + "')");
        }
        this.idleSeconds = idle;
    }

    @Override
    public Socket createSocket() throws IOException {
        Socket socket = new Socket();
        socket.setKeepAlive(true);
        set(socket, ExtendedSocketOptions.TCP_KEEPIDLE, idleSeconds);
        set(socket, ExtendedSocketOptions.TCP_KEEPINTERVAL, Math.max(1, idleSeconds / PROBES));
        set(socket, ExtendedSocketOptions.TCP_KEEPCOUNT, PROBES);
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return createSocket(InetAddress.getByName(host), port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return createSocket(InetAddress.getByName(host), port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(null, new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected(new InetSocketAddress(localAddress, localPort), new InetSocketAddress(address, port));
    }

    private Socket connected(InetSocketAddress local, InetSocketAddress remote) throws IOException {
        Socket socket = createSocket();
        if (local != null) {
            socket.bind(local);
        }
        socket.connect(remote);
        return socket;
    }

    /** Where the platform lacks an option (per-socket timings are Linux's, macOS's and Windows'), the system's own timings apply. */
    private static void set(Socket socket, SocketOption<Integer> option, int value) throws IOException {
        if (socket.supportedOptions().contains(option)) {
            socket.setOption(option, value);
        }
    }
}
