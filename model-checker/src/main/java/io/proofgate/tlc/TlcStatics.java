package io.proofgate.tlc;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * TLC's static state, taken once in a warm child ({@link WarmTlc}) and put back before each run, so that every run
 * starts from the same state whatever ran before it. TLC keeps much of a run in static fields, built for one run per
 * JVM, and a run reads what the one before it left; seen here:
 *
 * <ul>
 *   <li>the last run's checker ({@code TLCGlobals.mainChecker}): TLC evaluated a state bound's {@code
 *       TLCGet("distinct")} as a constant at start and dropped or failed the bound;
 *   <li>the last run's liveness finding ({@code LiveWorker}): a lasso was reported as an error without its trace;
 *   <li>the interned strings ({@code UniqueString}): each keeps the index of its definition in the last run that
 *       defined it (a model's invariant was read as {@code Integers}' division), and the order of strings, which orders
 *       TLC's sets and records, is the order they were first seen in.
 * </ul>
 *
 * So every static field of every TLC class is taken once all of them are initialised, before any run ({@link #fields});
 * the strings and the counters that number SANY's nodes after the warm-up ({@link #strings}), since the strings TLC's
 * classes made must stay, being compared by identity. Arrays and the JDK's maps and lists are copied; a final one is
 * refilled. Objects kept in a field are the same objects, as they were: what a run changes inside TLC's own objects is
 * not undone, which is why a warm run is compared with a fresh JVM's in the tests.
 */
final class TlcStatics {

    private final List<Saved> saved;

    private TlcStatics(List<Saved> saved) {
        this.saved = saved;
    }

    /** One field's value as taken, and how to put it back. */
    private record Saved(Field field, Object owner, Object value) {

        void restore() throws IllegalAccessException {
            boolean fixed = Modifier.isFinal(field.getModifiers());
            Object current = field.get(owner);
            if (value instanceof Map<?, ?> map) {
                if (fixed) {
                    refill(current, map);
                } else {
                    field.set(owner, copy(map));
                }
            } else if (value instanceof Collection<?> list) {
                if (fixed) {
                    refill(current, list);
                } else {
                    field.set(owner, copy(list));
                }
            } else if (value instanceof AtomicCount count) {
                count.restore(current);
            } else if (!fixed) {
                field.set(owner, copy(value));
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static void refill(Object current, Object saved) {
            if (current instanceof Map map && !map.equals(saved)) {
                map.clear();
                map.putAll((Map) saved);
            } else if (current instanceof Collection list && !list.equals(saved)) {
                list.clear();
                list.addAll((Collection) saved);
            }
        }
    }

    /** An atomic counter's value. */
    private record AtomicCount(long value) {
        void restore(Object counter) {
            if (counter instanceof AtomicInteger i) {
                i.set((int) value);
            } else if (counter instanceof AtomicLong l) {
                l.set(value);
            }
        }
    }

    /** Every static field of {@code classes}, as it is now: each class is initialised first. */
    static TlcStatics fields(List<Class<?>> classes) {
        List<Saved> saved = new ArrayList<>();
        for (Class<?> c : classes) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && !f.isSynthetic() && !f.isEnumConstant()) {
                    take(f, null).ifPresent(saved::add);
                }
            }
        }
        return new TlcStatics(saved);
    }

    /** The interned strings and SANY's node counters, as they are now (after the warm-up). */
    static TlcStatics strings() {
        List<Saved> saved = new ArrayList<>();
        try {
            Object table = field(util.UniqueString.class, "internTbl").get(null);
            for (Field f : table.getClass().getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    take(f, table).ifPresent(saved::add);
                }
            }
            take(field(util.UniqueString.class, "varCount"), null).ifPresent(saved::add);
            take(field(tla2sany.semantic.FrontEnd.class, "idCnt"), null).ifPresent(saved::add);
            take(field(tla2sany.semantic.SemanticNode.class, "uid"), null).ifPresent(saved::add);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("TLC's static state is not where this TLC keeps it", e);
        }
        return new TlcStatics(saved);
    }

    /** Puts every field back as taken; for the strings, also forgets each one's definition. */
    void restore() {
        try {
            for (Saved s : saved) {
                s.restore();
                if (s.owner() != null && s.value() instanceof util.UniqueString[] strings) {
                    for (util.UniqueString string : strings) {
                        if (string != null) {
                            string.setLoc(-1); // as a string newly made: no definition, no variable
                        }
                    }
                }
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot put TLC's static state back", e);
        }
    }

    /**
     * A new message printer: TLC's {@code MP} is one object kept across runs, and it remembers the warnings it printed
     * (each once per JVM), which would leave them out of a later run.
     */
    static void freshMessagePrinter() {
        try {
            var make = tlc2.output.MP.class.getDeclaredConstructor();
            make.setAccessible(true);
            field(tlc2.output.MP.class, "instance").set(null, make.newInstance());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("TLC's message printer is not where this TLC keeps it", e);
        }
    }

    /** Model values as a fresh JVM has them: none. */
    static void forgetModelValues() {
        tlc2.value.impl.ModelValue.init();
    }

    /**
     * A field's value to put back, or none where nothing of it can be put back: a final field other than a counter or a
     * map or list of the JDK's.
     */
    private static Optional<Saved> take(Field f, Object owner) {
        try {
            f.setAccessible(true);
            Object value = f.get(owner);
            boolean fixed = Modifier.isFinal(f.getModifiers());
            if (value instanceof AtomicInteger i) {
                return Optional.of(new Saved(f, owner, new AtomicCount(i.get())));
            } else if (value instanceof AtomicLong l) {
                return Optional.of(new Saved(f, owner, new AtomicCount(l.get())));
            }
            Optional<Object> copied = copyOf(value);
            if (fixed && !((value instanceof Map || value instanceof Collection) && copied.isPresent())) {
                return Optional.empty();
            }
            return Optional.of(new Saved(f, owner, copied.orElse(value)));
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + f, e);
        }
    }

    /**
     * A copy of {@code value} where it is an array or one of the JDK's own maps and lists, else {@code value} itself.
     */
    private static Object copy(Object value) {
        return copyOf(value).orElse(value);
    }

    /** A copy of {@code value}: an array, or one of the JDK's own maps and lists; empty for anything else. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Optional<Object> copyOf(Object value) {
        if (value != null && value.getClass().isArray()) {
            int length = java.lang.reflect.Array.getLength(value);
            Object copy = java.lang.reflect.Array.newInstance(value.getClass().getComponentType(), length);
            System.arraycopy(value, 0, copy, 0, length);
            return Optional.of(copy);
        }
        return Optional.ofNullable(
                switch (value) {
                    case Hashtable m -> new Hashtable(m);
                    case LinkedHashMap m -> new LinkedHashMap(m);
                    case HashMap m -> new HashMap(m);
                    case TreeMap m -> new TreeMap(m);
                    case Vector v -> new Vector(v);
                    case ArrayList l -> new ArrayList(l);
                    case java.util.LinkedHashSet h -> new java.util.LinkedHashSet(h);
                    case java.util.HashSet h -> new java.util.HashSet(h);
                    case java.util.TreeSet t -> new java.util.TreeSet(t);
                    case java.util.ArrayDeque d -> new java.util.ArrayDeque(d);
                    case java.util.concurrent.ConcurrentHashMap m -> new java.util.concurrent.ConcurrentHashMap(m);
                    case null, default -> null;
                });
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
