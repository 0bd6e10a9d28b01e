package io.oneway.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The 64-bit transaction id WalRecording gives a 32-bit xid from the WAL (the recording itself is in the WAL ITs). */
class WalRecordingTest {

    @Test
    void an_xid_below_the_current_xmax_is_of_its_epoch_and_one_at_or_above_it_of_the_epoch_before() {
        long xmax = 5L << 32 | 1_000;
        assertEquals(5L << 32 | 999, WalRecording.fullXid(999, xmax));
        assertEquals(4L << 32 | 1_000, WalRecording.fullXid(1_000, xmax));
        assertEquals(4L << 32 | 4_000_000_000L, WalRecording.fullXid(4_000_000_000L, xmax));
        assertEquals(741, WalRecording.fullXid(741, 742));
    }
}
