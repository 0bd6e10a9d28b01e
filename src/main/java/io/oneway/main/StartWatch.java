package io.oneway.main;

import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.MainListenerSupport;

/** Tells whether Camel Main got as far as starting, which its exit code does not. */
final class StartWatch extends MainListenerSupport {

    private volatile boolean started;

    @Override
    public void afterStart(BaseMainSupport main) {
        started = true;
    }

    boolean started() {
        return started;
    }
}
