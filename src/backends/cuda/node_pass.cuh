// The CUDA backend's node pass: the contact pass at t^n, then the constraints' dependent
// forces, the rigid bodies, the node kernel (one launch, or the Special and Plain node sets
// side by side) and the dependent updates. CudaBackend's members, included by
// cuda_backend.cu after the class (the class and its headers come from there).
#pragma once

namespace halfstep {
namespace {

template <class T>
template <int kDofs>
void CudaBackend<T>::launch_node_kernel(const Increment& inc, NodeMode mode, cuda::FrameOut<T> frame, int block) {
  const int nn = sys_.num_nodes;
  const ConstraintView<T> cons = constraints();
  const int nd = cons.num_dependent;
  if (nd > 0) {  // the dependent dofs' forces, before the node pass hands them on
    if (scheme_ == GpuScheme::Gather)
      cuda::dependent_force_kernel<T, Sink::Slots, kDofs><<<blocks(nd, 128), 128, 0, stream_>>>(
          mesh(), drive_.view, inc, nodal_forces(), slot_forces(), cons);
    else
      cuda::dependent_force_kernel<T, Sink::Plain, kDofs><<<blocks(nd, 128), 128, 0, stream_>>>(
          mesh(), drive_.view, inc, nodal_forces(), slot_forces(), cons);
  }
  const cuda::BodyView<T> bv = bodies();
  const int nb = bv.num_bodies;
  if (nb > 0) {  // rigid bodies first: the node pass adds their energy terms and skips their nodes
    if (scheme_ == GpuScheme::Gather)
      cuda::body_kernel<T, Sink::Slots, kDofs><<<blocks(nb, 64), 64, 0, stream_>>>(
          mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), bv, run());
    else
      cuda::body_kernel<T, Sink::Plain, kDofs><<<blocks(nb, 64), 64, 0, stream_>>>(
          mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), bv, run());
  }
  if (mode != NodeMode::Sample && plain_nodes()) {
    // Two launches side by side: the few special nodes with every feature, the rest without.
    if (scheme_ == GpuScheme::Gather)
      launch_node_sets<Sink::Slots, kDofs>(inc, mode, frame, block, cons);
    else
      launch_node_sets<Sink::Plain, kDofs>(inc, mode, frame, block, cons);
  } else if (scheme_ == GpuScheme::Gather) {
    cuda::node_pass_kernel<T, Sink::Slots, kDofs><<<blocks(nn, block), block, 0, stream_>>>(
        mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), frame, run(), cons, bv.sums, nb, bv.skip);
  } else {
    cuda::node_pass_kernel<T, Sink::Plain, kDofs><<<blocks(nn, block), block, 0, stream_>>>(
        mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), frame, run(), cons, bv.sums, nb, bv.skip);
  }
  if (nd > 0)
    cuda::dependent_update_kernel<T><<<blocks(nd, 128), 128, 0, stream_>>>(state(), cons, mode, frame);
  if (cons.num_rot_nodes > 0 && mode == NodeMode::Commit)
    cuda::dependent_frame_kernel<T><<<blocks(cons.num_rot_nodes, 128), 128, 0, stream_>>>(state(), cons, inc,
                                                                                         run());
  if (nb > 0 && mode == NodeMode::Sample)
    cuda::body_output_kernel<T><<<blocks(nb, 64), 64, 0, stream_>>>(bv, frame);
}

/// The Special and Plain launches of a node pass (NodeSet), Special on side_stream_
/// alongside Plain; the stream waits for both.
template <class T>
template <Sink S, int kDofs>
void CudaBackend<T>::launch_node_sets(const Increment& inc, NodeMode mode, cuda::FrameOut<T> frame, int block,
                                      const ConstraintView<T>& cons) {
  const int nn = sys_.num_nodes, ns = static_cast<int>(drive_.special_nodes.size());
  const unsigned plain_blocks = blocks(nn, block), special_blocks = ns > 0 ? blocks(ns, 128) : 0;
  const unsigned plain_groups = cuda::group_count(plain_blocks, block), special_groups = cuda::group_count(special_blocks, 128);
  if (ns > 0) {
    check(cudaEventRecord(fork_, stream_), "cudaEventRecord");
    check(cudaStreamWaitEvent(side_stream_, fork_, 0), "cudaStreamWaitEvent");
    cuda::node_pass_kernel<T, S, kDofs, cuda::NodeSet::Special><<<special_blocks, 128, 0, side_stream_>>>(
        mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), frame, run(), cons, nullptr, 0,
        nullptr, drive_.special_nodes.get(), ns, plain_groups);
    check(cudaEventRecord(join_, side_stream_), "cudaEventRecord");
  }
  cuda::node_pass_kernel<T, S, kDofs, cuda::NodeSet::Plain><<<plain_blocks, block, 0, stream_>>>(
      mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), frame, run(), cons, nullptr, 0,
      nullptr, nullptr, 0, special_groups);
  if (ns > 0) check(cudaStreamWaitEvent(stream_, join_, 0), "cudaStreamWaitEvent");
}

}  // namespace
}  // namespace halfstep
