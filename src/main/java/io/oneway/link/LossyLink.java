package io.oneway.link;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bad link, for tests and for rehearsing: each message passing is dropped, duplicated,
 * corrupted (a character flipped), delayed, or held back and released out of order, with the
 * configured probabilities. Held messages are released by later traffic or by {@link #flush()}.
 */
public final class LossyLink {

    /** Header: ms to delay this copy before it goes on. */
    public static final String DELAY = "OnewayLossyDelay";
    private static final Logger LOG = LoggerFactory.getLogger(LossyLink.class);

    private final String name;
    private final double drop;
    private final double duplicate;
    private final double corrupt;
    private final int reorderWindow;
    private final long maxDelayMillis;
    private final Random random;
    private final List<Message> held = new ArrayList<>();

    /**
     * @param drop          probability a message is lost
     * @param duplicate     probability a message arrives twice
     * @param corrupt       probability a copy has one character changed
     * @param reorderWindow messages held back and released in random order (0: none)
     * @param maxDelayMillis each copy is delayed by a random 0..max ms (0: none)
     * @param seed          random seed, or 0 for a random one
     */
    public LossyLink(String name, double drop, double duplicate, double corrupt, int reorderWindow, long maxDelayMillis, long seed) {
        this.name = name;
        this.drop = drop;
        this.duplicate = duplicate;
        this.corrupt = corrupt;
        this.reorderWindow = reorderWindow;
        this.maxDelayMillis = maxDelayMillis;
        this.random = seed == 0 ? new Random() : new Random(seed);
        if (drop > 0 || duplicate > 0 || corrupt > 0 || reorderWindow > 0 || maxDelayMillis > 0) {
            LOG.warn("Lossy link '{}' is in place: drop {}, duplicate {}, corrupt {}, reorder window {}, delay up to {} ms", name, drop,
                duplicate, corrupt, reorderWindow, maxDelayMillis);
        }
    }

    /** @return the copies to forward now (none, one, several), as messages for the splitter */
    public synchronized List<Message> pass(Exchange exchange) {
        List<Message> out = new ArrayList<>();
        if (random.nextDouble() < drop) {
            return out;
        }
        int copies = random.nextDouble() < duplicate ? 2 : 1;
        for (int i = 0; i < copies; i++) {
            Message copy = exchange.getMessage().copy();
            if (random.nextDouble() < corrupt) {
                copy.setBody(corrupted(copy.getBody()));
            }
            if (maxDelayMillis > 0) {
                copy.setHeader(DELAY, (long) (random.nextDouble() * maxDelayMillis));
            }
            if (reorderWindow > 0) {
                held.add(copy);
            } else {
                out.add(copy);
            }
        }
        while (held.size() > reorderWindow) {
            out.add(held.remove(random.nextInt(held.size())));
        }
        return out;
    }

    /** @return everything held back, in random order */
    public synchronized List<Message> flush() {
        List<Message> out = new ArrayList<>(held);
        held.clear();
        Collections.shuffle(out, random);
        return out;
    }

    /** The body with one byte (or character) changed. */
    private Object corrupted(Object body) {
        if (body instanceof byte[] bytes && bytes.length > 0) {
            byte[] copy = bytes.clone();
            int at = random.nextInt(copy.length);
            copy[at] = (byte) (copy[at] == 'x' ? 'y' : 'x');
            return copy;
        }
        if (body instanceof String text && !text.isEmpty()) {
            char[] chars = text.toCharArray();
            int at = random.nextInt(chars.length);
            chars[at] = chars[at] == 'x' ? 'y' : 'x';
            return new String(chars);
        }
        return body;
    }

    @Override
    public String toString() {
        return "LossyLink[" + name + "]";
    }
}
