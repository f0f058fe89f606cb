package io.locksmith.tck;

interface LeaderRules extends Rules {}
