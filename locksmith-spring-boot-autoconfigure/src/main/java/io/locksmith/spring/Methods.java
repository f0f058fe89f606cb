package io.locksmith.spring;

import java.lang.reflect.Method;

/** How messages, logs and events name a method. */
final class Methods {

    private Methods() {}

    static String describe(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
