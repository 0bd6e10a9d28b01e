package io.oneway.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import io.oneway.support.BrokerConnectionFactory;

/**
 * A standalone broker's bridges forward a frame as the replicator sent it, not as a large message,
 * and try a lost peer again at least every 2 s; its broker.xml reads cleanly.
 */
class BrokerConfigTest {

    @Test
    void every_bridge_sends_with_the_replicators_large_message_threshold() throws Exception {
        String xml = BrokerConfig.read(Path.of("artemis-config/broker.xml"))
                .standalone("branch1", "127.0.0.1", 61618)
                .forward(List.of(BrokerConfig.Forward.parse("oneway.branch1.changes=tcp://head-office:61616"),
                        BrokerConfig.Forward.parse("oneway.branch2.changes=tcp://head-office:61616")), "branch1", "secret")
                .text();
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        NodeList bridges = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)))
                .getElementsByTagNameNS("urn:activemq:core", "bridge");
        assertEquals(2, bridges.getLength());
        assertEquals(List.of(), xml.lines().filter(String::isBlank).toList(), "no blank lines of spaces in the file an operator edits");
        assertTrue(xml.contains("\n  <core "), "indented as the template");
        for (int i = 0; i < bridges.getLength(); i++) {
            NodeList threshold = ((Element) bridges.item(i)).getElementsByTagNameNS("urn:activemq:core", "min-large-message-size");
            assertEquals(1, threshold.getLength());
            assertEquals(BrokerConnectionFactory.MIN_LARGE_MESSAGE_SIZE, Integer.parseInt(threshold.item(0).getTextContent()));
            NodeList maxRetry = ((Element) bridges.item(i)).getElementsByTagNameNS("urn:activemq:core", "max-retry-interval");
            assertTrue(Integer.parseInt(maxRetry.item(0).getTextContent()) <= 2000, "a bridge tries its peer again at least every 2 s");
        }
    }
}
