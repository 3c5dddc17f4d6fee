{{ config(materialized='table') }}
with lines as (
    select cast(l.order_id as bigint) as order_id, cast(l.line_number as bigint) as line_number,
           cast(o.customer_id as bigint) as customer_id,
           cast(l.unit_price as decimal(10, 2)) * (100 - cast(l.discount_pct as bigint)) / 100 as net_unit,
           cast(l.quantity as bigint) as quantity
    from {{ source('airbyte_schema', 'order_lines') }} l
    join {{ source('airbyte_schema', 'orders') }} o on cast(o.order_id as bigint) = cast(l.order_id as bigint)
),
gross as (
    select customer_id, sum(quantity * net_unit) as gross from lines group by 1
),
returned as (
    select l.customer_id, sum(cast(r.quantity_returned as bigint) * l.net_unit) as returned
    from {{ source('airbyte_schema', 'returns') }} r
    join lines l on l.order_id = cast(r.order_id as bigint) and l.line_number = cast(r.line_number as bigint)
    group by 1
),
orders as (
    select cast(customer_id as bigint) as customer_id, count(*) as order_count
    from {{ source('airbyte_schema', 'orders') }} group by 1
),
customers as (
    select cast(c.customer_id as bigint) as customer_id, c.first_name || ' ' || c.last_name as customer_name,
           coalesce(o.order_count, 0) as order_count,
           round(coalesce(g.gross, 0), 2) as gross_revenue,
           round(coalesce(r.returned, 0), 2) as returned_amount
    from {{ source('airbyte_schema', 'customers') }} c
    left join orders o on o.customer_id = cast(c.customer_id as bigint)
    left join gross g on g.customer_id = cast(c.customer_id as bigint)
    left join returned r on r.customer_id = cast(c.customer_id as bigint)
)
select
    customer_id, customer_name, order_count, gross_revenue, returned_amount,
    gross_revenue - returned_amount as net_revenue,
    case
        when gross_revenue - returned_amount >= 1500 then 'vip'
        when gross_revenue - returned_amount >= 500 then 'loyal'
        when gross_revenue - returned_amount > 0 then 'casual'
        else 'new'
    end as value_segment,
    row_number() over (order by gross_revenue - returned_amount desc, customer_id) as revenue_rank
from customers
