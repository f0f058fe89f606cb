package io.locksmith.tck;

interface RateLimiterRules extends Rules {}
