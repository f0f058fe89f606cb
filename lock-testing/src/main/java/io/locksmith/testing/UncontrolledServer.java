package io.locksmith.testing;

/** A server the tests reach but do not run, so they cannot kill, pause or restart it. */
abstract class UncontrolledServer implements TestServer {

    /** @return why this server cannot be controlled, and how to get one that can */
    abstract String whyUncontrolled();

    private UnsupportedOperationException uncontrollable(String control) {
        return new UnsupportedOperationException(control + " is unavailable: " + whyUncontrolled());
    }

    @Override
    public boolean controllable() {
        return false;
    }

    @Override
    public void kill() {
        throw uncontrollable("kill");
    }

    @Override
    public void pause() {
        throw uncontrollable("pause");
    }

    @Override
    public void resume() {
        throw uncontrollable("resume");
    }

    @Override
    public void restart() {
        throw uncontrollable("restart");
    }
}
