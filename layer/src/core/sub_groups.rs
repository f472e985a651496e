//! How a work-group divides into sub-groups: the device's Vulkan
//! subgroups, taken in order of local linear id, every one full but the
//! last (the mapping `translator`'s `lower/library/sub_groups.rs` gives
//! the kernels). The answers to `clGetKernelSubGroupInfo` and
//! `CL_DEVICE_MAX_NUM_SUB_GROUPS` follow from it, so that the API and the
//! kernels agree.

/// A work-group size's sub-groups on a device with subgroups of `size`
/// work-items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubGroups {
    pub size: usize,
}

impl SubGroups {
    /// The largest sub-group of a work-group of `work_items`:
    /// `get_max_sub_group_size()`.
    pub fn max_size(self, work_items: usize) -> usize {
        self.size.min(work_items)
    }

    /// How many sub-groups a work-group of `work_items` has:
    /// `get_num_sub_groups()`.
    pub fn count(self, work_items: usize) -> usize {
        work_items.div_ceil(self.size)
    }

    /// The one-dimensional work-group size with `count` sub-groups, if one
    /// has at most `max_work_items` work-items.
    pub fn work_items_for(self, count: usize, max_work_items: usize) -> Option<usize> {
        let work_items = count.checked_mul(self.size)?;
        (count > 0 && work_items <= max_work_items).then_some(work_items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_divide_into_full_sub_groups_and_a_last_partial_one() {
        let eight = SubGroups { size: 8 };
        assert_eq!((eight.count(20), eight.max_size(20)), (3, 8));
        assert_eq!((eight.count(4), eight.max_size(4)), (1, 4));
        assert_eq!(eight.work_items_for(4, 256), Some(32));
        assert_eq!(eight.work_items_for(40, 256), None);
        assert_eq!(eight.work_items_for(0, 256), None);
    }
}
