package io.oneway.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.camel.Message;
import org.apache.camel.component.file.GenericFile;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whatever body a transport's component delivers reads as the same bytes, and an oversized one is refused before it is read whole. */
class BodyBytesTest {

    private static final byte[] WIRE = "{\"v\":4,\"kind\":\"heartbeat\"}".getBytes(StandardCharsets.UTF_8);
    private static final int MAX = 64;

    @TempDir
    Path dir;

    @Test
    void bytes_text_streams_files_and_paths_read_alike() throws Exception {
        Path file = Files.write(dir.resolve("1764530000123-000000001.msg"), WIRE);
        GenericFile<File> generic = new GenericFile<>();
        generic.setFile(file.toFile());
        for (Object body : new Object[] {WIRE, new String(WIRE, StandardCharsets.UTF_8), new ByteArrayInputStream(WIRE), file.toFile(), file, generic}) {
            assertArrayEquals(WIRE, BodyBytes.read(message(body), MAX), body.getClass().getName());
        }
    }

    @Test
    void an_oversized_body_of_any_kind_is_refused_and_an_empty_one_too() throws Exception {
        byte[] big = new byte[MAX + 1];
        Path file = Files.write(dir.resolve("big.msg"), big);
        for (Object body : new Object[] {big, new String(big, StandardCharsets.ISO_8859_1), new ByteArrayInputStream(big), file.toFile(), file}) {
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> BodyBytes.read(message(body), MAX));
            assertTrue(e.getMessage().contains("over the limit of " + MAX), e.getMessage());
        }
        for (Object body : new Object[] {new byte[0], "", null}) {
            assertThrows(MalformedMessageException.class, () -> BodyBytes.read(message(body), MAX));
        }
    }

    private static Message message(Object body) {
        Message m = new DefaultMessage(new DefaultCamelContext());
        m.setBody(body);
        return m;
    }
}
