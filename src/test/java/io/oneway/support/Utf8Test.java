package io.oneway.support;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Utf8 writes what Java's own encoder writes, whole or a window at a time, surrogate pairs across a window's edge included. */
class Utf8Test {

    private static final List<String> TEXTS = List.of("", "plain ascii", "é".repeat(10), "日本語", "😀 and 👍",
            "a".repeat(8191) + "😀" + "b", // a pair across the edge of the first window
            "é".repeat(20_000) + "😀".repeat(5_000) + "\u0000\u007f\u0080\u07ff\u0800\uffff",
            "lone \ud800 surrogate and \udc00 another");

    @Test
    void length_is_that_of_string_get_bytes() {
        for (String s : TEXTS) {
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, Utf8.length(s), s.length() + " characters");
        }
    }

    @Test
    void fed_a_window_at_a_time_the_digest_is_that_of_the_whole_bytes() throws Exception {
        for (String s : TEXTS) {
            MessageDigest fed = MessageDigest.getInstance("SHA-256");
            Utf8.feed(s, fed::update);
            assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)), fed.digest(), s.length() + " characters");
        }
    }
}
