//! Asserts that a frame of every scene (step and drag) performs no heap allocation.
// A counting global allocator needs `unsafe impl GlobalAlloc`; it is confined to this test binary.
#![allow(unsafe_code)]

use mg_core::graphics::{DoubleHelixScene, HypercubeScene, IcosahedronScene, MoleculeScene};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards to the system allocator and counts, per thread, allocations made while that thread
/// opted in, so tests running in parallel (and the harness's threads) cannot disturb a count.
struct CountingAllocator;

thread_local! {
    // Const-initialised Cells need no allocation or destructor, so touching them inside the
    // allocator cannot recurse into it.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn note_allocation() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
    }
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the GlobalAlloc contract;
// the only addition is a thread-local counter increment, which neither allocates nor panics.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Allocations made on this thread while `f` runs.
fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_an_allocation_so_a_zero_below_means_something() {
    let counted = allocations_during(|| {
        let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(16));
        drop(v);
    });
    assert_eq!(counted, 1);
}

#[test]
fn stepping_and_dragging_every_scene_allocates_nothing() {
    // Built outside the counted section: construction may allocate, frames may not.
    let mut icosahedron = IcosahedronScene::new(7);
    let mut hypercube = HypercubeScene::new();
    let mut helix = DoubleHelixScene::new();
    let mut molecule = MoleculeScene::new();
    let counted = allocations_during(|| {
        for frame in 0..5_000 {
            if frame % 100 == 50 {
                icosahedron.drag(4.0, -2.0);
                hypercube.drag(-3.0, 1.0);
                helix.drag(2.0, 2.0);
                molecule.drag(1.0, -1.0);
            }
            icosahedron.step();
            hypercube.step();
            helix.step();
            molecule.step();
            std::hint::black_box(icosahedron.particle_vertices());
            std::hint::black_box(hypercube.radar_vertices());
            std::hint::black_box(helix.vertices());
            std::hint::black_box(molecule.atom_vertices());
        }
    });
    assert_eq!(counted, 0, "{counted} allocations during 5 000 frames");
}
