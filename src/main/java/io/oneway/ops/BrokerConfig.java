package io.oneway.ops;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import io.oneway.support.BrokerConnectionFactory;

/**
 * The broker.xml of a standalone broker instance, made from the project's
 * artemis-config/broker.xml (addresses, security, address settings): its name, data under the
 * instance, security on, one acceptor on the given host and port, and for store and forward a
 * core bridge per forwarded queue to the peer broker that holds the same address.
 */
public final class BrokerConfig {

    private static final String CORE = "urn:activemq:core";
    /**
     * The longest a bridge waits between attempts to reach its peer: forwarding resumes within 2 s of
     * the WAN's or the peer broker's return (at 10 s, the drain after the benchmark's 2-min outage of
     * the head office's broker waited up to 10 s for it), for one connect attempt per 2 s.
     */
    private static final int MAX_RETRY_INTERVAL_MS = 2000;

    /** A queue whose messages a bridge moves to the same address on the broker at {@code url}. */
    public record Forward(String queue, String url) {

        /** From {@code QUEUE=tcp://host:port}. */
        public static Forward parse(String spec) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || !spec.substring(eq + 1).startsWith("tcp://")) {
                throw new IllegalArgumentException("--forward takes QUEUE=tcp://HOST:PORT, not " + spec);
            }
            return new Forward(spec.substring(0, eq), spec.substring(eq + 1));
        }
    }

    private final Document document;
    private final Element core;

    private BrokerConfig(Document document) {
        this.document = document;
        NodeList cores = document.getElementsByTagNameNS(CORE, "core");
        if (cores.getLength() != 1) {
            throw new IllegalArgumentException("not an Artemis broker.xml: no <core> element");
        }
        this.core = (Element) cores.item(0);
    }

    public static BrokerConfig read(Path template) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return new BrokerConfig(factory.newDocumentBuilder().parse(template.toFile()));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalArgumentException("cannot read " + template + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + template, e);
        }
    }

    /** Name, data directories (relative to the instance), security on, and the one acceptor. */
    public BrokerConfig standalone(String name, String host, int port) {
        set("name", name);
        for (String kind : List.of("paging", "bindings", "journal", "large-messages")) {
            set(kind + "-directory", "data/" + kind);
        }
        set("security-enabled", "true");
        Element acceptors = replace("acceptors");
        Element acceptor = child(acceptors, "acceptor", "tcp://" + host + ":" + port + "?protocols=CORE,AMQP");
        acceptor.setAttribute("name", "oneway");
        return this;
    }

    /**
     * A core bridge per forward: reconnecting forever with back-off, persistent (it forwards
     * from a durable queue and is confirmed by the peer), with duplicate detection, so that
     * neither a lost link nor a restart of either broker loses or doubles a message. A bridge
     * sends with the replicator's large-message threshold: at Artemis' default (100 KB) it turned
     * every full frame into a large message on the peer, streamed to its consumer in chunks that
     * took half of the central replicator's CPU in the benchmark's split deployment.
     */
    public BrokerConfig forward(List<Forward> forwards, String user, String password) {
        if (forwards.isEmpty()) {
            return this;
        }
        Map<String, String> connectorOfUrl = new LinkedHashMap<>();
        forwards.forEach(f -> connectorOfUrl.putIfAbsent(f.url(), "peer-" + (connectorOfUrl.size() + 1)));
        Element connectors = replace("connectors");
        connectorOfUrl.forEach((url, connectorName) -> child(connectors, "connector", url).setAttribute("name", connectorName));
        Element bridges = replace("bridges");
        for (Forward f : forwards) {
            Element bridge = child(bridges, "bridge", null);
            bridge.setAttribute("name", "forward-" + f.queue());
            child(bridge, "queue-name", f.queue());
            child(bridge, "forwarding-address", f.queue());
            child(bridge, "retry-interval", "1000");
            child(bridge, "retry-interval-multiplier", "2.0");
            child(bridge, "max-retry-interval", Integer.toString(MAX_RETRY_INTERVAL_MS));
            child(bridge, "initial-connect-attempts", "-1");
            child(bridge, "reconnect-attempts", "-1");
            child(bridge, "use-duplicate-detection", "true");
            child(bridge, "confirmation-window-size", "1048576");
            child(bridge, "min-large-message-size", Integer.toString(BrokerConnectionFactory.MIN_LARGE_MESSAGE_SIZE));
            child(bridge, "user", user);
            child(bridge, "password", password);
            Element statics = child(bridge, "static-connectors", null);
            child(statics, "connector-ref", connectorOfUrl.get(f.url()));
        }
        return this;
    }

    /** The file an operator reads and edits: indented anew, the template's own line breaks dropped (kept, they came out doubled, as blank lines of spaces). */
    public String text() {
        dropLayout(document);
        try {
            TransformerFactory factory = TransformerFactory.newInstance();
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
            var transformer = factory.newTransformer();
            transformer.setOutputProperty(OutputKeys.INDENT, "yes");
            transformer.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
            transformer.setOutputProperty(OutputKeys.ENCODING, StandardCharsets.UTF_8.name());
            StringWriter out = new StringWriter();
            transformer.transform(new DOMSource(document), new StreamResult(out));
            return out.toString();
        } catch (TransformerException e) {
            throw new IllegalStateException("cannot write broker.xml: " + e.getMessage(), e);
        }
    }

    public void write(Path file) {
        try {
            Files.writeString(file, text(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private void set(String element, String value) {
        Element e = ofCore(element);
        (e == null ? child(core, element, null) : e).setTextContent(value);
    }

    /** The element emptied, or added when missing. */
    private Element replace(String element) {
        Element e = ofCore(element);
        if (e == null) {
            return child(core, element, null);
        }
        while (e.hasChildNodes()) {
            e.removeChild(e.getFirstChild());
        }
        return e;
    }

    /** Removes the text nodes that are only whitespace between elements. */
    private static void dropLayout(Node parent) {
        Node n = parent.getFirstChild();
        while (n != null) {
            Node next = n.getNextSibling();
            if (n.getNodeType() == Node.TEXT_NODE && n.getTextContent().isBlank()) {
                parent.removeChild(n);
            } else {
                dropLayout(n);
            }
            n = next;
        }
    }

    private Element ofCore(String element) {
        for (Node n = core.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && CORE.equals(e.getNamespaceURI()) && element.equals(e.getLocalName())) {
                return e;
            }
        }
        return null;
    }

    private Element child(Node parent, String name, String text) {
        Element e = document.createElementNS(CORE, name);
        if (text != null) {
            e.setTextContent(text);
        }
        parent.appendChild(e);
        return e;
    }
}
