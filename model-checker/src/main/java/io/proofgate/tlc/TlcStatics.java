package io.proofgate.tlc;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TLC's static state, taken once in a warm child ({@link WarmTlc}) and put back before each run,
 * so that every run starts from the same state whatever ran before it. TLC keeps much of a run in
 * static fields, built for one run per JVM, and a run reads what the one before it left:
 *
 * <ul>
 *   <li>the settings and the checker ({@code TLCGlobals}, {@code tlc2.TLC}, the {@code TLC}
 *       module's class): with the last run's checker still there, TLC evaluated a state bound's
 *       {@code TLCGet("distinct")} as a constant at start and dropped or failed the bound;
 *   <li>what a run found ({@code LiveWorker}): with the last run's liveness violation still
 *       there, a lasso was reported as an error without its trace;
 *   <li>the interned strings ({@code UniqueString}): each carries the index of its definition in
 *       the last run that defined it, which TLC keeps (a model's invariant was read as
 *       {@code Integers}' division), and the order of strings, which orders TLC's sets and
 *       records, is the order they were first seen in;
 *   <li>the model values ({@code ModelValue}), numbered in the order they were made;
 *   <li>the counters that number SANY's nodes.
 * </ul>
 *
 * The settings are taken before the first run, as a fresh JVM has them; the strings and the node
 * counters after the warm-up, since the strings TLC's classes made while they were loaded must
 * stay (TLC compares strings by identity). A run that loads a class of TLC's may leave strings
 * that the next run's restore drops, so {@link WarmTlc} ends a child after such a run.
 */
final class TlcStatics {

    /**
     * The classes whose static fields are a run's: settings, the checker, the liveness checker's
     * finding, the message printer, SANY's error list and user-defined operators, the seed.
     */
    private static final List<Class<?>> SETTINGS = List.of(tlc2.TLCGlobals.class, tlc2.TLC.class,
            tlc2.module.TLC.class, tlc2.tool.liveness.LiveWorker.class, tlc2.tool.TLCTrace.class,
            tlc2.output.MP.class, util.ToolIO.class, tlc2.value.RandomEnumerableValues.class,
            tlc2.tool.AbstractChecker.class, tlc2.tool.Simulator.class, tla2sany.semantic.SemanticNode.class,
            tla2sany.parser.Operators.class);

    private final List<Saved> saved;

    private TlcStatics(List<Saved> saved) {
        this.saved = saved;
    }

    /** One field's value as taken, and how to put it back. */
    private record Saved(Field field, Object owner, Object value) {
        void restore() throws IllegalAccessException {
            if (value instanceof java.util.Hashtable<?, ?> table) {
                field.set(owner, new java.util.Hashtable<>(table));
            } else if (value instanceof int[] ints) {
                field.set(owner, ints.clone());
            } else if (value instanceof Object[] objects) {
                field.set(owner, objects.clone());
            } else if (field.getType() == AtomicInteger.class) {
                ((AtomicInteger) field.get(owner)).set((Integer) value);
            } else {
                field.set(owner, value);
            }
        }
    }

    /** The settings, as they are before any run: TLC's static fields that a run sets. */
    static TlcStatics settings() {
        List<Saved> saved = new ArrayList<>();
        for (Class<?> c : SETTINGS) {
            for (Field f : c.getDeclaredFields()) {
                int mods = f.getModifiers();
                if (Modifier.isStatic(mods) && !Modifier.isFinal(mods)) {
                    saved.add(take(f, null));
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
                    saved.add(take(f, table));
                }
            }
            saved.add(take(field(util.UniqueString.class, "varCount"), null));
            saved.add(take(field(tla2sany.semantic.FrontEnd.class, "idCnt"), null));
            Field uid = field(tla2sany.semantic.SemanticNode.class, "uid");
            saved.add(new Saved(uid, null, ((AtomicInteger) uid.get(null)).get()));
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

    /** Model values as a fresh JVM has them: none. */
    static void forgetModelValues() {
        tlc2.value.impl.ModelValue.init();
    }

    private static Saved take(Field f, Object owner) {
        try {
            f.setAccessible(true);
            Object value = f.get(owner);
            if (value instanceof java.util.Hashtable<?, ?> table) {
                value = new java.util.Hashtable<>(table);
            } else if (value instanceof int[] ints) {
                value = ints.clone();
            } else if (value instanceof Object[] objects) {
                value = objects.clone();
            }
            return new Saved(f, owner, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + f, e);
        }
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
