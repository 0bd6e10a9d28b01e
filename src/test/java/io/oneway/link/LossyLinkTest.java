package io.oneway.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

class LossyLinkTest {

    private final CamelContext context = new DefaultCamelContext();

    @Test
    void a_perfect_link_passes_every_message_once_unchanged() {
        LossyLink link = new LossyLink("t", 0, 0, 0, 0, 0, 1);
        List<Message> out = link.pass(exchange("hello"));
        assertEquals(1, out.size());
        assertEquals("hello", out.get(0).getBody(String.class));
    }

    @Test
    void drop_duplicate_and_corrupt_do_what_they_say() {
        assertTrue(new LossyLink("t", 1, 0, 0, 0, 0, 1).pass(exchange("m")).isEmpty());
        assertEquals(2, new LossyLink("t", 0, 1, 0, 0, 0, 1).pass(exchange("m")).size());
        assertNotEquals("message", new LossyLink("t", 0, 0, 1, 0, 0, 1).pass(exchange("message")).get(0).getBody(String.class));
        Exchange bytes = exchange("message");
        bytes.getMessage().setBody("message".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertNotEquals("message", new String(new LossyLink("t", 0, 0, 1, 0, 0, 1).pass(bytes).get(0).getBody(byte[].class),
                java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void the_reorder_window_holds_messages_and_releases_all_of_them_in_another_order() {
        LossyLink link = new LossyLink("t", 0, 0, 0, 10, 0, 3);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            link.pass(exchange("m" + i)).forEach(m -> out.add(m.getBody(String.class)));
        }
        assertEquals(90, out.size());
        link.flush().forEach(m -> out.add(m.getBody(String.class)));
        assertEquals(100, new HashSet<>(out).size());
        assertNotEquals(sorted(out), out);
    }

    private static List<String> sorted(List<String> in) {
        List<String> s = new ArrayList<>(in);
        s.sort((a, b) -> Integer.compare(Integer.parseInt(a.substring(1)), Integer.parseInt(b.substring(1))));
        return s;
    }

    private Exchange exchange(String body) {
        Exchange e = new DefaultExchange(context);
        e.getMessage().setBody(body);
        return e;
    }
}
