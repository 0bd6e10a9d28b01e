package io.oneway.apply;

import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.processor.resequencer.ExpressionResultComparator;

import io.oneway.wire.Headers;

/**
 * Resequencer order for change frames: by first position, then last; a frame follows another
 * directly when it starts right after the other ends. Frames of different lengths can cover
 * the same positions (a resend is cut differently from the original), so equality needs both ends.
 */
public final class FrameOrder implements ExpressionResultComparator {

    @Override
    public void setExpression(Expression expression) {
        // the positions are read from the frame headers
    }

    @Override
    public boolean predecessor(Exchange o1, Exchange o2) {
        return successor(o2, o1);
    }

    @Override
    public boolean successor(Exchange o1, Exchange o2) {
        return first(o1) == last(o2) + 1;
    }

    @Override
    public boolean isValid(Exchange o) {
        return o.getMessage().getHeader(Headers.FIRST) instanceof Long && o.getMessage().getHeader(Headers.LAST) instanceof Long;
    }

    @Override
    public int compare(Exchange o1, Exchange o2) {
        int byFirst = Long.compare(first(o1), first(o2));
        return byFirst != 0 ? byFirst : Long.compare(last(o1), last(o2));
    }

    private static long first(Exchange e) {
        return e.getMessage().getHeader(Headers.FIRST, Long.class);
    }

    private static long last(Exchange e) {
        return e.getMessage().getHeader(Headers.LAST, Long.class);
    }
}
