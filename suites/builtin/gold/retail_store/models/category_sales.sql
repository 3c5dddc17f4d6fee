{{ config(materialized='table') }}
with lines as (
    select cast(p.category_id as bigint) as category_id, cast(l.quantity as bigint) as quantity,
           cast(l.quantity as bigint) * cast(l.unit_price as decimal(10, 2)) * (100 - cast(l.discount_pct as bigint)) / 100 as revenue
    from {{ source('airbyte_schema', 'order_lines') }} l
    join {{ source('airbyte_schema', 'products') }} p on cast(p.product_id as bigint) = cast(l.product_id as bigint)
),
per_category as (
    select cast(c.category_id as bigint) as category_id, c.category_name, c.department,
           coalesce(sum(l.quantity), 0) as units_sold,
           round(coalesce(sum(l.revenue), 0), 2) as revenue
    from {{ source('airbyte_schema', 'categories') }} c
    left join lines l on l.category_id = cast(c.category_id as bigint)
    group by 1, 2, 3
)
select
    category_id, category_name, department, units_sold, revenue,
    round(revenue / sum(revenue) over (), 4) as revenue_share,
    row_number() over (order by revenue desc, category_id) as category_rank
from per_category
