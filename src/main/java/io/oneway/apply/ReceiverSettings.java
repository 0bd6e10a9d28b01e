package io.oneway.apply;

/**
 * Tuning of the receiving side.
 *
 * @param resendAfterMillis how long a gap may last before it is requested (and between repeated requests)
 * @param maxParked         most changes held ahead of the applied position, per source
 * @param maxRun            changes per central transaction (whole source transactions; a larger one is applied whole)
 * @param ackRepeatMillis   an unchanged ack is sent again after this long, since acks get lost too
 */
public record ReceiverSettings(long resendAfterMillis, int maxParked, int maxRun, long ackRepeatMillis) {
}
