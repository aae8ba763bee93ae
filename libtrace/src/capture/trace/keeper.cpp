// SPDX-License-Identifier: MIT
#include "capture/trace/keeper.hpp"

#include <algorithm>
#include <utility>

#include "apitrace/grammar.hpp"

namespace libtrace::capture::trace {

std::uint64_t Keeper::enter(Event& e, bool whole, const std::vector<Touched>& refs) {
  const std::lock_guard lock(mu_);
  enter_locked(e, whole, refs);
  return next_seq_ - 1;
}

std::uint64_t Keeper::record(Event& e, const std::vector<Touched>& refs, std::uint64_t command_buffer) {
  const std::lock_guard lock(mu_);
  const std::uint64_t id = alive_locked(command_buffer);
  if (!id) return 0;
  Record& r = enter_locked(e, true, refs);
  r.done = true;
  r.owners = 1;
  const std::uint64_t seq = next_seq_ - 1;
  objects_[id].recording.push_back(seq);
  return seq;
}

Keeper::Record& Keeper::enter_locked(Event& e, bool whole, const std::vector<Touched>& refs) {
  const std::uint64_t seq = next_seq_++;
  Record& r = records_.try_emplace(records_.end(), seq, &pool_)->second;
  r.enter = e.bytes();
  r.enter_defs.assign(e.spans().begin(), e.spans().end());
  r.whole = whole;
  r.needs.reserve(refs.size());
  for (const Touched& t : refs) {
    const std::uint64_t id = alive_locked(t.handle);
    if (!id || std::find(r.needs.begin(), r.needs.end(), id) != r.needs.end()) continue;
    r.needs.push_back(id);
    ++objects_[id].users;
  }
  bytes_ += r.enter.size();
  return r;
}

void Keeper::leave(std::uint64_t seq, bool ok, Event* details) {
  const std::lock_guard lock(mu_);
  const auto it = records_.find(seq);
  if (it == records_.end()) return;
  if (!ok) return drop_locked(seq);
  it->second.done = true;
  if (details) {
    it->second.leave = details->bytes();
    it->second.leave_defs.assign(details->spans().begin(), details->spans().end());
    bytes_ += it->second.leave.size();
  }
}

void Keeper::own_created(std::uint64_t seq, const std::vector<Touched>& outputs, std::uint64_t parent) {
  const std::lock_guard lock(mu_);
  const auto r = records_.find(seq);
  if (r == records_.end()) return;
  const std::uint64_t pid = parent ? alive_locked(parent) : 0;
  for (const Touched& t : outputs) {
    if (alive_.count(t.handle)) continue;  // the same queue or image again
    const std::uint64_t id = next_id_++;
    Object& o = objects_[id];
    o.handle = t.handle;
    o.creator = seq;
    alive_[t.handle] = id;
    ++r->second.owners;
    if (pid) objects_[pid].children.push_back(id);
  }
}

void Keeper::own_by_object(std::uint64_t seq, std::uint64_t handle) {
  const std::lock_guard lock(mu_);
  const auto r = records_.find(seq);
  const std::uint64_t id = alive_locked(handle);
  if (r == records_.end() || !id) return;
  objects_[id].attached.push_back(seq);
  ++r->second.owners;
}

void Keeper::own_by_recording(std::uint64_t seq, std::uint64_t command_buffer) {
  const std::lock_guard lock(mu_);
  const auto r = records_.find(seq);
  const std::uint64_t id = alive_locked(command_buffer);
  if (r == records_.end() || !id) return;
  objects_[id].recording.push_back(seq);
  ++r->second.owners;
}

void Keeper::own_by_slots(std::uint64_t seq, std::uint64_t set, const std::vector<std::uint64_t>& slots) {
  const std::lock_guard lock(mu_);
  const auto r = records_.find(seq);
  const std::uint64_t id = alive_locked(set);
  if (r == records_.end() || !id) return;
  std::vector<std::uint64_t> replaced;
  for (const std::uint64_t s : slots) {
    std::uint64_t& writer = objects_[id].slots[s];
    if (writer == seq) continue;
    if (writer) replaced.push_back(writer);
    writer = seq;
    ++r->second.owners;
  }
  for (const std::uint64_t old : replaced) release_locked(old);
}

void Keeper::destroyed(std::uint64_t seq, const std::vector<std::uint64_t>& handles) {
  const std::lock_guard lock(mu_);
  for (const std::uint64_t h : handles) {
    const std::uint64_t id = alive_locked(h);
    if (!id) continue;
    // The destroy names what it destroys: that alone keeps nothing.
    if (const auto r = records_.find(seq); r != records_.end()) {
      auto& needs = r->second.needs;
      if (const auto n = std::find(needs.begin(), needs.end(), id); n != needs.end()) {
        needs.erase(n);
        --objects_[id].users;
      }
    }
    kill_locked(id);
    // Still named by a kept call: made and destroyed again on replay.
    const auto o = objects_.find(id);
    const auto r = records_.find(seq);
    if (o != objects_.end() && r != records_.end()) {
      o->second.destroys.push_back(seq);
      ++r->second.owners;
    }
  }
}

void Keeper::settle(std::uint64_t seq) {
  const std::lock_guard lock(mu_);
  const auto r = records_.find(seq);
  if (r != records_.end() && r->second.owners == 0) drop_locked(seq);
}

void Keeper::end_recording(std::uint64_t command_buffer) {
  const std::lock_guard lock(mu_);
  if (const std::uint64_t id = alive_locked(command_buffer)) end_recording_locked(objects_[id]);
}

void Keeper::end_recordings_of_children(std::uint64_t pool) {
  const std::lock_guard lock(mu_);
  const std::uint64_t id = alive_locked(pool);
  if (!id) return;
  thread_local std::vector<std::uint64_t> children;
  children = objects_[id].children;
  for (const std::uint64_t c : children)
    if (const auto o = objects_.find(c); o != objects_.end()) end_recording_locked(o->second);
}

void Keeper::kill_children(std::uint64_t pool) {
  const std::lock_guard lock(mu_);
  const std::uint64_t id = alive_locked(pool);
  if (!id) return;
  const std::vector<std::uint64_t> children = std::exchange(objects_[id].children, {});
  for (const std::uint64_t c : children)
    if (objects_.count(c) && !objects_[c].dead) kill_locked(c);
}

void Keeper::write(Stream& s) {
  const std::lock_guard lock(mu_);
  for (const auto& [seq, r] : records_) {
    if (!r.done) continue;  // still in a call on another thread
    Event e(s);
    const auto enter = [&](Event& x) { x.splice(r.enter, r.enter_defs); };
    enter(e);
    const std::uint64_t no = s.commit(e, r.whole ? Stream::Kind::whole : Stream::Kind::enter, enter);
    if (r.whole) continue;
    Event l(s);
    const auto leave = [&](Event& x) {
      x.byte(apitrace::grammar::kLeave);
      x.uint(no);
      x.splice(r.leave, r.leave_defs);
    };
    leave(l);
    s.commit(l, Stream::Kind::leave, leave);
  }
}

std::size_t Keeper::calls() const {
  const std::lock_guard lock(mu_);
  return records_.size();
}

std::size_t Keeper::bytes() const {
  const std::lock_guard lock(mu_);
  return bytes_;
}

std::uint64_t Keeper::alive_locked(std::uint64_t handle) const {
  const auto it = alive_.find(handle);
  return it == alive_.end() ? 0 : it->second;
}

void Keeper::release_locked(std::uint64_t seq) {
  const auto r = records_.find(seq);
  if (r == records_.end()) return;
  if (r->second.owners > 0) --r->second.owners;
  if (r->second.owners == 0) drop_locked(seq);
}

void Keeper::drop_locked(std::uint64_t seq) {
  const auto r = records_.find(seq);
  if (r == records_.end()) return;
  // What it names goes after it: unuse_locked() may drop other records.
  thread_local std::vector<std::uint64_t> needs;
  const std::size_t from = needs.size();
  needs.insert(needs.end(), r->second.needs.begin(), r->second.needs.end());
  bytes_ -= r->second.enter.size() + r->second.leave.size();
  records_.erase(r);
  for (std::size_t i = from; i < needs.size(); ++i) unuse_locked(needs[i]);
  needs.resize(from);
}

void Keeper::end_recording_locked(Object& o) {
  // The lists' capacity goes round from one recording to the next: a
  // command buffer is recorded again every frame.
  std::vector<std::uint64_t> seqs = std::exchange(o.recording, std::move(spare_));
  for (const std::uint64_t s : seqs) release_locked(s);
  seqs.clear();
  spare_ = std::move(seqs);
}

void Keeper::kill_locked(std::uint64_t id) {
  Object& o = objects_[id];
  o.dead = true;
  if (const auto a = alive_.find(o.handle); a != alive_.end() && a->second == id) alive_.erase(a);
  const std::vector<std::uint64_t> children = std::exchange(o.children, {});
  const std::vector<std::uint64_t> attached = std::exchange(o.attached, {});
  const std::vector<std::uint64_t> recording = std::exchange(o.recording, {});
  std::vector<std::uint64_t> writers;
  for (const auto& [slot, w] : o.slots) writers.push_back(w);
  o.slots.clear();
  for (const std::uint64_t c : children)
    if (const auto x = objects_.find(c); x != objects_.end() && !x->second.dead) kill_locked(c);
  for (const std::uint64_t s : recording) release_locked(s);
  for (const std::uint64_t s : attached) release_locked(s);
  for (const std::uint64_t s : writers) release_locked(s);
  // Its own kept calls name it no more once those are gone: then it goes.
  const auto it = objects_.find(id);
  if (it != objects_.end() && it->second.users == 0) {
    ++it->second.users;
    unuse_locked(id);
  }
}

void Keeper::unuse_locked(std::uint64_t id) {
  const auto it = objects_.find(id);
  if (it == objects_.end()) return;
  Object& o = it->second;
  if (o.users > 0) --o.users;
  if (!o.dead || o.users > 0) return;
  const std::uint64_t creator = o.creator;
  const std::vector<std::uint64_t> destroys = std::move(o.destroys);
  objects_.erase(it);
  release_locked(creator);
  for (const std::uint64_t s : destroys) release_locked(s);
}

}  // namespace libtrace::capture::trace
